// server.js - the example Node.js server: express + React server-side
// rendering (lib/app.js) in one process. Listens on 127.0.0.1 at the port
// given as the first argument, or at one the kernel chooses (stoke record -P
// learns it from its agent). Profile it under autocannon with:
//   stoke record -P 'npx autocannon -d 5 http://127.0.0.1:$PORT/' -- node examples/node/server.js
'use strict';
const { createApp } = require('./lib/app');

function listen(port, name) {
  const server = createApp().listen(port, '127.0.0.1', () => {
    console.log(`${name}: listening on http://127.0.0.1:${server.address().port}/`);
  });
  return server;
}

if (require.main === module) {
  const server = listen(Number(process.argv[2] || 0), 'server.js');
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      console.log('server.js: shutting down');
      server.close();
      process.exit(0);
    });
  }
}

module.exports = { listen };
