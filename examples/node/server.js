// server.js - the example HTTP server of examples/http_server.c in Node.js:
// GET / renders a recursive HTML tree of random depth 1 to 5 (renderTree is
// the hot spot). Listens on the port given as the first argument, or on a
// port the kernel chooses. Profile it with the JavaScript names:
//   stoke record -P 'npx autocannon -d 5 http://127.0.0.1:$PORT/' -- \
//       node --perf-basic-prof examples/node/server.js
'use strict';
const http = require('http');

const FANOUT = 5;

function renderTree(depth, id, out) {
  let checksum = id;
  for (let i = 0; i < 400; i++) checksum = (checksum * 31 + ((id >> (i % 16)) & 0x7f)) >>> 0;
  out.push('<div class="node" id="', String(id), '">', String.fromCharCode(97 + (checksum % 26)));
  if (depth > 1) {
    for (let c = 0; c < FANOUT; c++) checksum ^= renderTree(depth - 1, id * FANOUT + c + 1, out);
  }
  out.push('</div>\n');
  return checksum;
}

function renderPage() {
  const out = ['<!DOCTYPE html><html><body>\n'];
  renderTree(1 + Math.floor(Math.random() * 5), 0, out);
  out.push('</body></html>\n');
  return out.join('');
}

const server = http.createServer((req, res) => {
  if (req.url !== '/' && req.url !== '/render') {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found\n');
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/html' });
  res.end(renderPage());
});

server.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
  console.log(`server.js: listening on http://127.0.0.1:${server.address().port}/`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.log('server.js: shutting down');
    server.close();
    process.exit(0);
  });
}
