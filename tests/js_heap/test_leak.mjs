// test_leak.mjs - ground truth from node: leak_program.js makes 20,000
// Leak objects between two snapshots. stoke's comparison (js_heap_tool
// diff) must count exactly 20,000 more Leak objects, and their retained
// bytes must grow by what they hold, within 10%: each Leak object and the
// strings of its payload (V8 keeps 'x'.repeat(1000) + n as a tree of
// concatenated strings, ~450 bytes, not one flat kilobyte), as an
// independent reader (independent_summary.mjs, JSON.parse) finds them. The
// objects and shallow bytes of every group of both snapshots must be what
// that reader counts, exactly. In the JS heap profile, read back by go tool
// pprof, the Leak frame's cumulative bytes (its width in a flame graph) are
// the Leak group's retained bytes.
// usage: node test_leak.mjs JS_HEAP_TOOL WORK_DIR GO
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compareSummaries, parseRows } from './compare_rows.mjs'
import { edgesOf, readSnapshot, summary, typeOf, nameOf } from './independent_summary.mjs'

const [tool, work, go] = process.argv.slice(2)
const here = dirname(fileURLToPath(import.meta.url))
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
const before = join(work, 'before.heapsnapshot')
const after = join(work, 'after.heapsnapshot')
execFileSync(process.execPath, [join(here, '..', 'tools', 'leak_program.js'), before, after], { stdio: 'inherit' })

let failures = 0
function expect (ok, what) {
  console.log((ok ? 'ok: ' : 'FAILED: ') + what)
  if (!ok) failures++
}

const stoke = f => execFileSync(tool, ['summary', f], { encoding: 'utf8', maxBuffer: 1 << 28 })
const afterSnapshot = readSnapshot(after)
for (const [file, snapshot] of [[before, readSnapshot(before)], [after, afterSnapshot]]) {
  const problems = compareSummaries(parseRows(stoke(file)), summary(snapshot).groups)
  expect(problems.length === 0, `${file}: every group's objects and shallow bytes as the ` +
    `independent reader counts them${problems.length ? ': ' + problems.slice(0, 5).join('; ') : ''}`)
}

const diff = execFileSync(tool, ['diff', before, after], { encoding: 'utf8' })
const leak = diff.split('\n').map(l => l.split('\t')).find(f => f[0] === 'Leak')
expect(leak !== undefined, 'the comparison has a Leak group')
const [countBefore, countAfter, , , retainedBefore, retainedAfter, newCount] = leak.slice(2).map(Number)
expect(countAfter - countBefore === 20000, `Leak objects grew by ${countAfter - countBefore}, want 20000`)
expect(newCount === 20000, `new Leak objects by id: ${newCount}, want 20000`)

// What each Leak holds: itself and the strings of its payload.
const { size } = summary(afterSnapshot)
const strings = new Set(['string', 'concatenated string', 'sliced string'])
const seen = new Set()
let held = 0
let leaks = 0
for (let i = 0; i < afterSnapshot.n; i++) {
  if (typeOf(afterSnapshot, i) !== 'object' || nameOf(afterSnapshot, i) !== 'Leak') continue
  leaks++
  held += size[i]
  const work = [...edgesOf(afterSnapshot, i)].filter(e => e.name === 'payload').map(e => e.to)
  while (work.length) {
    const s = work.pop()
    if (seen.has(s) || !strings.has(typeOf(afterSnapshot, s))) continue
    seen.add(s)
    held += size[s]
    for (const e of edgesOf(afterSnapshot, s)) if (e.type !== 'weak') work.push(e.to)
  }
}
const grew = retainedAfter - retainedBefore
expect(leaks === 20000, `the independent reader finds ${leaks} Leak objects`)
expect(Math.abs(grew - held) <= held * 0.1,
  `Leak retained bytes grew by ${grew}; the objects and their strings hold ${held} ` +
  `(${(held / leaks).toFixed(0)} bytes each)`)

// The profile: go tool pprof -top's cumulative bytes of the Leak frame.
const pprof = join(work, 'after.pb.gz')
execFileSync(tool, ['pprof', after, pprof])
const top = execFileSync(go, ['tool', 'pprof', '-top', '-unit=B', '-nodefraction=0', '-sample_index=js_shallow', pprof],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
const leakLine = top.split('\n').find(l => / Leak$/.test(l))
const cum = leakLine ? Number(leakLine.trim().split(/\s+/)[3].replace(/B$/, '')) : NaN
expect(cum === retainedAfter, `the profile's Leak frame holds ${cum} bytes under it, the Leak group retains ${retainedAfter}`)

console.log(`${failures ? 'FAILED' : 'passed'}: ${failures} failures`)
process.exit(failures ? 1 : 0)
