// express_program.js - an express app with many objects of many kinds
// (routes, plain objects, Maps, class instances, closures, buffers), which
// writes a heap snapshot of itself: the kind of heap node users inspect.
// usage: node express_program.js EXPRESS_DIR OUT.heapsnapshot
'use strict'
const v8 = require('v8')
const express = require(require.resolve('express', { paths: [process.argv[2]] }))

class Session {
  constructor (id) {
    this.id = id
    this.user = { name: 'user' + id, roles: ['reader'], seen: new Date(id) }
    this.cart = new Map([['item' + (id % 97), id % 5]])
  }
}

const app = express()
const sessions = []
const handlers = []
for (let i = 0; i < 5000; i++) {
  sessions.push(new Session(i))
  if (i % 10 === 0) handlers.push(() => sessions[i].id)
}
for (let i = 0; i < 200; i++) app.get('/route' + i, (req, res) => res.json(sessions[i]))
const cache = { hits: 0, misses: 0, entries: sessions.slice(0, 100).map(s => ({ key: s.id, value: Buffer.alloc(64) })) }
v8.writeHeapSnapshot(process.argv[3])
console.log('%d sessions, %d handlers, %d cached, %d routes', sessions.length, handlers.length,
  cache.entries.length, app.router ? app.router.stack.length : 0)
