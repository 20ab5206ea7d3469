// test_devtools.mjs - stoke's Summary and Comparison numbers against
// DevTools' own code (heap-snapshot-toolkit, the devtools-frontend heap
// snapshot worker, installed from tests/js_heap/package.json by
// scripts/setup.sh), on snapshots node writes: a bare node, an express app
// with many objects, and the two snapshots of leak_program.js. Every group
// must have the same name, objects, shallow and retained bytes, and the
// comparison the same new and deleted objects and bytes per group.
//
// One difference is by design: DevTools keeps closures ("Function") and an
// object called Function apart, under one name, and its Summary then shows
// only one of the two; stoke shows one group. There the objects and shallow
// bytes must be the sum of DevTools' two, the retained bytes at least the
// larger and at most the sum (one may dominate the other).
// usage: node test_devtools.mjs JS_HEAP_TOOL WORK_DIR EXPRESS_DIR
import { execFileSync } from 'node:child_process'
import { createReadStream, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compareSummaries, parseRows } from './compare_rows.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const { parse } = await import(join(here, 'node_modules', 'heap-snapshot-toolkit', 'index.js'))
  .catch(() => {
    console.error('test_devtools: heap-snapshot-toolkit is missing: run scripts/setup.sh ' +
      '(npm ci --prefix tests/js_heap)')
    process.exit(1)
  })

const [tool, work, expressDir] = process.argv.slice(2)
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
const node = (...args) => execFileSync(process.execPath, args, { stdio: 'inherit' })
const bare = join(work, 'bare.heapsnapshot')
const app = join(work, 'express.heapsnapshot')
const before = join(work, 'before.heapsnapshot')
const after = join(work, 'after.heapsnapshot')
node('-e', `require('v8').writeHeapSnapshot(${JSON.stringify(bare)})`)
node(join(here, 'programs', 'express_program.js'), expressDir, app)
node(join(here, '..', 'tools', 'leak_program.js'), before, after)

let failures = 0
function expect (ok, what, problems = []) {
  console.log((ok ? 'ok: ' : 'FAILED: ') + what + (problems.length ? ': ' + problems.slice(0, 8).join('; ') : ''))
  if (!ok) failures++
}

const devtools = f => parse(createReadStream(f, 'utf-8'))
// DevTools' key of a group: "script,line,column,name" or ",name".
const key = (name, position) => position ? position.replaceAll(':', ',') + ',' + name : ',' + name

// DevTools' groups before it keys them by name and position (where two of
// one name would overwrite each other), merged by that key.
function devtoolsGroups (snapshot) {
  const aggregates = snapshot.buildAggregates()
  snapshot.calculateClassesRetainedSize(aggregates)
  const groups = new Map()
  for (const [k, a] of aggregates) {
    const position = typeof k === 'string' ? k.split(',').slice(0, 3).join(':') : ''
    const key = a.name + '\t' + position
    const g = groups.get(key)
    if (!g) {
      groups.set(key, { count: a.count, shallow: a.self, retained: a.maxRet, largest: a.maxRet, parts: 1 })
      continue
    }
    g.count += a.count
    g.shallow += a.self
    g.retained += a.maxRet
    g.largest = Math.max(g.largest, a.maxRet)
    g.parts++
  }
  return groups
}

async function checkSummary (file) {
  const snapshot = await devtools(file)
  const expected = devtoolsGroups(snapshot)
  const rows = parseRows(execFileSync(tool, ['summary', file], { encoding: 'utf8', maxBuffer: 1 << 28 }))
  const problems = compareSummaries(rows, expected, ['count', 'shallow'])
  for (const [k, g] of expected) {
    const r = rows.get(k)
    const ok = r && (g.parts === 1 ? r.retained === g.retained : r.retained >= g.largest && r.retained <= g.retained)
    if (!ok) problems.push(`${k.replace('\t', ' @')}: stoke retains ${r ? r.retained : 'none'}, DevTools ${g.retained} in ${g.parts} part(s)`)
  }
  expect(problems.length === 0, `${file}: ${rows.size} groups as DevTools' Summary has them`, problems)
  return snapshot
}

for (const file of [bare, app, before]) await checkSummary(file)
const end = await checkSummary(after)

// The Comparison: before's groups named with after's interfaces.
const start = await devtools(before)
const baseAggregates = await start.aggregatesForDiff(await end.interfaceDefinitions())
const changes = await end.calculateSnapshotDiff(start.uid, baseAggregates)
const problems = []
const lines = execFileSync(tool, ['diff', before, after], { encoding: 'utf8' }).trim().split('\n')
const ours = new Map(lines.map(l => l.split('\t')).map(f => [key(f[0], f[1]), f.slice(2).map(Number)]))
for (const [k, c] of Object.entries(changes)) {
  const o = ours.get(k)
  const got = o ? [o[6], o[7], o[8], o[9]] : 'none'
  const want = [c.addedCount, c.addedSize, c.removedCount, c.removedSize]
  if (String(got) !== String(want)) problems.push(`${k}: stoke ${got}, DevTools ${want}`)
}
for (const [k, o] of ours) {
  if (!(k in changes) && (o[6] || o[8])) problems.push(`${k}: stoke has changes DevTools has not`)
}
expect(problems.length === 0, `${Object.keys(changes).length} groups changed as DevTools' Comparison has them`, problems)

console.log(`${failures ? 'FAILED' : 'passed'}: ${failures} failures`)
process.exit(failures ? 1 : 0)
