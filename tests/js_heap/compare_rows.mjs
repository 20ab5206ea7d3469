// compare_rows.mjs - reads js_heap_tool's summary rows and compares them
// with another reader's groups, for the JS heap tests.
// Never: runs anything.

// {"name\tposition": {count, shallow, retained}} from js_heap_tool summary.
export function parseRows (text) {
  const rows = new Map()
  for (const line of text.split('\n')) {
    const f = line.split('\t')
    if (f.length < 5 || f[0] === 'total') continue
    rows.set(f[0] + '\t' + f[1], { count: Number(f[2]), shallow: Number(f[3]), retained: Number(f[4]) })
  }
  return rows
}

// The differences between stoke's rows and expected groups, on the given
// fields, as readable lines (none: they agree).
export function compareSummaries (rows, expected, fields = ['count', 'shallow']) {
  const problems = []
  for (const key of new Set([...rows.keys(), ...expected.keys()])) {
    const a = rows.get(key)
    const b = expected.get(key)
    for (const f of fields) {
      if (!a || !b || a[f] !== b[f]) {
        problems.push(`${key.replace('\t', ' @')}: stoke ${a ? a[f] : 'none'}, expected ${b ? b[f] : 'none'} (${f})`)
      }
    }
  }
  return problems
}
