// render.js - renders the example's page COUNT times (the first argument,
// default 300), depths 1 to 5 in turn, and prints the length of all the HTML:
// the server's work without a server, for `npm run render` and for profiling
// a short command.
'use strict';
const { renderPage } = require('../lib/app');

const count = Number(process.argv[2] || 300);
let length = 0;
for (let i = 0; i < count; i++) length += renderPage(1 + (i % 5)).length;
console.log(`render.js: ${count} pages, ${length} bytes of HTML`);
