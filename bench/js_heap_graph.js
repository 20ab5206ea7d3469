// js_heap_graph.js - builds the object graph of a busy shop (customers,
// orders, order lines, plain objects, Sets, a Map index, closures) and
// writes a V8 heap snapshot of it: the input of bench's js_heap_read
// workload, about 200 MB with the default 150,000 orders.
// usage: node js_heap_graph.js OUT.heapsnapshot [ORDERS]
'use strict'
const v8 = require('v8')

class Customer {
  constructor (i) {
    this.id = i
    this.name = 'customer-' + i
    this.tags = new Set(['tier' + (i % 50)])
    this.orders = []
  }
}

class Order {
  constructor (i, customer) {
    this.id = i
    this.customer = customer
    this.lines = []
    this.note = 'order ' + i
  }
}

class Line {
  constructor (order, n) {
    this.order = order
    this.qty = n
    this.sku = { code: 'sku' + (n % 1000), price: n * 1.5 }
  }
}

const orders = Number(process.argv[3] || 150000)
const customers = []
const index = new Map()
const callbacks = []
for (let i = 0; i < orders; i++) {
  const c = customers[i % 20000] || (customers[i % 20000] = new Customer(i))
  const o = new Order(i, c)
  for (let k = 0; k < 3; k++) o.lines.push(new Line(o, k + i))
  c.orders.push(o)
  index.set('o' + i, o)
  if (i % 10 === 0) callbacks.push(() => o.id + i)
}
v8.writeHeapSnapshot(process.argv[2])
console.log('%d customers, %d orders, %d callbacks', customers.length, index.size, callbacks.length)
