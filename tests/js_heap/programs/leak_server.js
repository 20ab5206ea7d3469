// leak_server.js - an express app (express from examples/node's npm
// packages, found through NODE_PATH) for the JavaScript heap tests. It
// prints "listening PORT PID" once it listens on 127.0.0.1 (PORT from the
// environment, or any free one).
//
//   GET /       "ok": the server still serves
//   GET /leak   keeps 20,000 more Leak objects, each holding a string of
//               1,024 characters of its own (the hex of random bytes, so a
//               flat string, not one V8 shares or builds from pieces);
//               answers how many it keeps
//   GET /usr2   how many SIGUSR2 the program itself got: with TAKE_USR2=1
//               it handles SIGUSR2, as node's heapdump module does
const crypto = require('crypto')
const express = require('express')

const LEAKED_PER_REQUEST = 20000

class Leak {
  constructor (id) {
    this.id = id
    this.text = crypto.randomBytes(512).toString('hex')
  }
}

const kept = []
let usr2 = 0
if (process.env.TAKE_USR2 === '1') process.on('SIGUSR2', () => { usr2++ })

const app = express()
app.get('/', (req, res) => res.send('ok'))
app.get('/leak', (req, res) => {
  for (let i = 0; i < LEAKED_PER_REQUEST; i++) kept.push(new Leak(kept.length))
  res.send(String(kept.length))
})
app.get('/usr2', (req, res) => res.send(String(usr2)))
const server = app.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  console.log('listening', server.address().port, process.pid)
})
