// app.js - the express application: GET / renders the Page component on the
// server (react-dom/server), of depth 1, 2, 3, 4, 5, 1, ... request after
// request (the same mix every run, so runs compare), GET /health answers
// "ok". Shared by the single-process server and every cluster worker.
'use strict';
const express = require('express');
const React = require('react');
const { renderToString } = require('react-dom/server');
const { Page } = require('./tree');

function renderPage(depth) {
  return '<!DOCTYPE html>' + renderToString(React.createElement(Page, { depth }));
}

function createApp() {
  const app = express();
  let requests = 0;
  app.get('/', (req, res) => {
    res.type('html').send(renderPage(1 + (requests++ % 5)));
  });
  app.get('/health', (req, res) => res.type('text').send('ok\n'));
  return app;
}

module.exports = { createApp, renderPage };
