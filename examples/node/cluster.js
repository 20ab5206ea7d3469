// cluster.js - the same server in cluster mode: the primary process forks
// WORKERS workers (the second argument, default 2) that share one listening
// socket on 127.0.0.1 at the port given as the first argument (0: the kernel
// chooses). SIGINT or SIGTERM to the primary stops every worker, then it.
'use strict';
const cluster = require('cluster');
const { listen } = require('./server');

const port = Number(process.argv[2] || 0);
const workers = Number(process.argv[3] || 2);

if (cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log('cluster.js: shutting down');
      for (const worker of Object.values(cluster.workers)) worker.kill('SIGTERM');
    });
  }
  cluster.on('exit', () => {
    if (Object.keys(cluster.workers).length === 0) process.exit(0);
  });
} else {
  const server = listen(port, `cluster.js worker ${cluster.worker.id}`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
