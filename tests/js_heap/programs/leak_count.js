// leak_count.js SNAPSHOT - the truth a JavaScript heap test compares
// stoke with, read from node's own .heapsnapshot by JSON.parse, apart from
// stoke's reader: prints "COUNT BYTES", the Leak objects (leak_server.js)
// and the bytes they and the strings they hold take (their self sizes).
const fs = require('fs')

const snapshot = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const meta = snapshot.snapshot.meta
const nodeFields = meta.node_fields.length
const edgeFields = meta.edge_fields.length
const field = (name) => meta.node_fields.indexOf(name)
const edgeField = (name) => meta.edge_fields.indexOf(name)
const { nodes, edges, strings } = snapshot
const objectType = meta.node_fields.indexOf('type') >= 0
  ? meta.node_types[field('type')].indexOf('object') : -1
const propertyType = meta.edge_types[edgeField('type')].indexOf('property')

let count = 0
let bytes = 0
for (let n = 0, e = 0; n < nodes.length; n += nodeFields) {
  const edgeCount = nodes[n + field('edge_count')]
  const isLeak = nodes[n + field('type')] === objectType &&
    strings[nodes[n + field('name')]] === 'Leak'
  if (isLeak) {
    count++
    bytes += nodes[n + field('self_size')]
    for (let i = e; i < e + edgeCount * edgeFields; i += edgeFields) {
      if (edges[i + edgeField('type')] === propertyType &&
          strings[edges[i + edgeField('name_or_index')]] === 'text') {
        bytes += nodes[edges[i + edgeField('to_node')] + field('self_size')]
      }
    }
  }
  e += edgeCount * edgeFields
}
console.log(count, bytes)
