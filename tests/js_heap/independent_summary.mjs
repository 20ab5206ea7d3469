// independent_summary.mjs - DevTools' Summary counts of a .heapsnapshot
// (objects and shallow bytes by constructor group), computed from
// JSON.parse of the file, written apart from stoke's C code and in the way
// DevTools itself goes about it: the same rules (owned arrays and hidden
// objects counted in their one owner, detached native objects, "<tag>"
// names, plain objects named after the commonest property lists, groups
// split by constructor position), none of the same code.
//
// Never: computes dominators or retained sizes (the DevTools test compares
// those with DevTools' own code).
import { readFileSync } from 'node:fs'

export function readSnapshot (path) {
  const snap = JSON.parse(readFileSync(path, 'utf8'))
  const meta = snap.snapshot.meta
  const nf = meta.node_fields.length
  const ef = meta.edge_fields.length
  const at = (fields, name) => fields.indexOf(name)
  const s = {
    snap,
    nf,
    ef,
    n: snap.nodes.length / nf,
    typeNames: meta.node_types[at(meta.node_fields, 'type')],
    edgeTypeNames: meta.edge_types[at(meta.edge_fields, 'type')],
    off: Object.fromEntries(meta.node_fields.map((f, i) => [f, i])),
    eoff: Object.fromEntries(meta.edge_fields.map((f, i) => [f, i]))
  }
  s.firstEdge = new Array(s.n + 1)
  for (let i = 0, e = 0; i < s.n; i++) {
    s.firstEdge[i] = e
    e += snap.nodes[i * nf + s.off.edge_count]
  }
  s.firstEdge[s.n] = snap.edges.length / ef
  return s
}

const field = (s, i, f) => s.snap.nodes[i * s.nf + s.off[f]]
const typeOf = (s, i) => s.typeNames[field(s, i, 'type')]
const nameOf = (s, i) => s.snap.strings[field(s, i, 'name')]

function * edgesOf (s, i) {
  for (let e = s.firstEdge[i]; e < s.firstEdge[i + 1]; e++) {
    const base = e * s.ef
    const type = s.edgeTypeNames[s.snap.edges[base + s.eoff.type]]
    const nameOrIndex = s.snap.edges[base + s.eoff.name_or_index]
    yield {
      type,
      name: type === 'element' || type === 'hidden' ? nameOrIndex : s.snap.strings[nameOrIndex],
      to: s.snap.edges[base + s.eoff.to_node] / s.nf
    }
  }
}

// Native objects V8 marks detached, and those only they reach: "Detached ".
function detachedNodes (s) {
  const detached = new Set()
  if (s.off.detachedness === undefined) return detached
  const state = new Map()
  const visited = new Set()
  const attachedWork = []
  const detachedWork = []
  const visit = (i, st) => {
    if (visited.has(i)) return
    visited.add(i)
    if (typeOf(s, i) !== 'native') return
    state.set(i, st)
    if (st === 1) attachedWork.push(i)
    if (st === 2) detachedWork.push(i)
  }
  for (let i = 0; i < s.n; i++) {
    const st = field(s, i, 'detachedness')
    if (st) visit(i, st)
  }
  const spread = (i, st) => {
    for (const e of edgesOf(s, i)) if (e.type !== 'hidden' && e.type !== 'weak') visit(e.to, st)
  }
  while (attachedWork.length) spread(attachedWork.pop(), 1)
  while (detachedWork.length) {
    const i = detachedWork.pop()
    if (state.get(i) !== 1) spread(i, 2)
  }
  for (const [i, st] of state) if (st === 2) detached.add(i)
  return detached
}

function displayName (s, i, detached) {
  return (detached.has(i) ? 'Detached ' : '') + nameOf(s, i)
}

// Sizes of hidden objects and arrays with one owner move to the owner.
function shallowSizes (s, detached) {
  const size = []
  for (let i = 0; i < s.n; i++) size.push(field(s, i, 'self_size'))
  const root = 0
  let userRoots = false
  for (const e of edgesOf(s, root)) if (typeOf(s, e.to) !== 'synthetic') userRoots = true
  if (!userRoots) return size
  const owner = new Map()
  const work = []
  for (let i = 0; i < s.n; i++) {
    const t = typeOf(s, i)
    const owned = t === 'hidden' || t === 'array' ||
      (t === 'native' && displayName(s, i, detached) === 'system / ExternalStringData')
    if (!owned) { owner.set(i, i); work.push(i) }
  }
  while (work.length) {
    const i = work.pop()
    const o = owner.get(i)
    for (const e of edgesOf(s, i)) {
      if (e.type === 'weak') continue
      const current = owner.get(e.to)
      if (current === undefined) { owner.set(e.to, o); work.push(e.to) } else if (current !== e.to && current !== o && current !== 'shared') { owner.set(e.to, 'shared'); work.push(e.to) }
    }
  }
  for (const [i, o] of owner) {
    if (o === i || o === 'shared' || o === root || typeOf(s, o) === 'synthetic') continue
    size[o] += size[i]
    size[i] = 0
  }
  return size
}

const isPlain = (s, i) => typeOf(s, i) === 'object' && nameOf(s, i) === 'Object'

function formatProperty (name) {
  return /[,'"{}]/.test(name) ? JSON.stringify(name) : name
}

// The property lists common among plain objects, commonest first.
function interfaces (s) {
  const candidates = new Map()
  let plain = 0
  for (let i = 0; i < s.n; i++) {
    if (!isPlain(s, i)) continue
    plain++
    let name = '{'
    const props = []
    for (const e of edgesOf(s, i)) {
      if (e.type !== 'property' || e.name === '__proto__') continue
      const f = formatProperty(e.name)
      if (name.length > 1 && name.length + f.length > 120) break
      name += (name.length > 1 ? ', ' : '') + f
      props.push(e.name)
    }
    if (!props.length) continue
    name += '}'
    const c = candidates.get(name)
    if (c) c.count++
    else candidates.set(name, { name, props, count: 1 })
  }
  const sorted = [...candidates.values()].sort((a, b) => b.count - a.count)
  const min = Math.max(2, plain / 1000)
  return sorted.filter(c => c.count >= min)
}

// The interface with the most properties (the commoner on a tie) whose
// properties the object has all of.
function interfaceOf (s, i, defs) {
  const props = new Set()
  for (const e of edgesOf(s, i)) if (e.type === 'property') props.add(e.name)
  let best = null
  defs.forEach((d, index) => {
    if (!d.props.every(p => props.has(p))) return
    if (!best || d.props.length > best.d.props.length) best = { d, index }
  })
  return best ? best.d.name : null
}

function groupName (s, i, detached, defs) {
  const t = typeOf(s, i)
  if (t === 'hidden') return '(system)'
  if (t === 'code') return '(compiled code)'
  if (t === 'closure') return 'Function'
  if (t === 'regexp') return 'RegExp'
  if (t !== 'object' && t !== 'native') return '(' + t + ')'
  if (isPlain(s, i)) {
    const name = interfaceOf(s, i, defs)
    if (name) return name
  }
  let name = displayName(s, i, detached)
  const tag = name.startsWith('<') ? 0 : name.startsWith('Detached <') ? 10 : -1
  if (tag >= 0 && name.indexOf(' ', tag) >= 0) name = name.slice(0, name.indexOf(' ', tag)) + '>'
  return name
}

function locations (s) {
  const meta = s.snap.snapshot.meta
  const fields = meta.location_fields || []
  const map = new Map()
  const locs = s.snap.locations || []
  for (let k = 0; k + fields.length <= locs.length && fields.length; k += fields.length) {
    const get = f => locs[k + fields.indexOf(f)]
    map.set(get('object_index') / s.nf, `${get('script_id')}:${get('line')}:${get('column')}`)
  }
  return map
}

// {"name\tposition": {count, shallow}} of every group with objects.
export function summary (s, defs) {
  const detached = detachedNodes(s)
  const size = shallowSizes(s, detached)
  defs = defs || interfaces(s)
  const where = locations(s)
  const groups = new Map()
  for (let i = 0; i < s.n; i++) {
    if (!size[i]) continue
    const position = typeOf(s, i) === 'object' ? (where.get(i) || '') : ''
    const key = groupName(s, i, detached, defs) + '\t' + position
    const g = groups.get(key) || { count: 0, shallow: 0 }
    g.count++
    g.shallow += size[i]
    groups.set(key, g)
  }
  return { groups, size, defs }
}

export { edgesOf, typeOf, nameOf, interfaces }
