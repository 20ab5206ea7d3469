// leak_program.js - the leak users hunt with heap snapshots: 20,000 objects
// of class Leak, each holding a string of about 1 KB, kept in an array.
// usage: node leak_program.js BEFORE.heapsnapshot AFTER.heapsnapshot
// Writes a snapshot before the objects are made and one after.
'use strict'
const v8 = require('v8')

class Leak {
  constructor () { this.payload = 'x'.repeat(1000) + Math.random() }
}

const kept = []
v8.writeHeapSnapshot(process.argv[2])
for (let i = 0; i < 20000; i++) kept.push(new Leak())
v8.writeHeapSnapshot(process.argv[3])
// Used after the snapshot: V8 does not hold locals it knows are dead.
console.log('kept %d objects', kept.length)
