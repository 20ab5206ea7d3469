// tree.js - the React components the example server renders: a page holding a
// recursive Tree of a given depth, each Node hashing its id (the CPU work a
// real component does formatting data) before rendering its children.
'use strict';
const React = require('react');

const h = React.createElement;
const FANOUT = 5;

// label(id): a short label derived from the id by a few hundred rounds of
// hashing; the hot spot of every request.
function label(id) {
  let checksum = id;
  for (let i = 0; i < 400; i++) checksum = (checksum * 31 + ((id >> (i % 16)) & 0x7f)) >>> 0;
  return String.fromCharCode(97 + (checksum % 26)) + (checksum % 1000);
}

function Tree({ depth, id }) {
  const children = [];
  if (depth > 1) {
    for (let c = 0; c < FANOUT; c++) {
      const child = id * FANOUT + c + 1;
      children.push(h(Tree, { key: child, depth: depth - 1, id: child }));
    }
  }
  return h('div', { className: 'node', id: 'n' + id }, label(id), children);
}

function Page({ depth }) {
  return h('html', null,
    h('head', null, h('title', null, 'tree of depth ' + depth)),
    h('body', null, h(Tree, { depth, id: 0 })));
}

module.exports = { Page, Tree, label };
