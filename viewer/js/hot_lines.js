// hot_lines.js - a function's hottest lines under its sandwich, the way
// pprof -list shows them: the lines its samples were at (the line sampled
// where it was the leaf, the line of the call where it called on), each
// with its share of the function's total and self, and the source around
// them where the report kept it (the source files as they were when the
// report was written; stoke keeps at most 200 KB of source per report,
// hottest lines first). From each tab's line table (data.js: lines) and the
// report's sources; for the whole recording, whatever range is picked.
// Builds its cells with textContent only.

const HOT_LINES_SHOWN = 12;   // the hottest lines of a function listed
const HOT_LINES_CONTEXT = 3;  // lines of source shown either side of each

// The lines of the function named name (a string of the profile's pool) in
// value valueIndex: [{ file (string), line, self, total }], hottest first;
// [] when the tab knows none.
function hotLinesOf(profile, name, valueIndex) {
  const lines = profile.lines;
  if (!lines || name < 0 || valueIndex >= lines.self.length) return [];
  const byPlace = new Map();
  for (let i = 0; i < lines.name.length; i++) {
    if (lines.name[i] !== name) continue;
    const key = lines.file[i] + ':' + lines.line[i];
    let entry = byPlace.get(key);
    if (!entry) {
      entry = { file: lines.file[i], line: lines.line[i], self: 0, total: 0 };
      byPlace.set(key, entry);
    }
    entry.self += lines.self[valueIndex][i];
    entry.total += lines.total[valueIndex][i];
  }
  return [...byPlace.values()].filter((e) => e.total > 0)
    .sort((a, b) => b.total - a.total || a.line - b.line);
}

// The rows a file's listing shows for its hot lines (sorted by line): each
// hot line with its context, runs that touch merged, a gap row between
// runs. [{ line, entry (a hot line, or null), gap }].
function listingRows(entries) {
  const wanted = new Map();
  for (const e of entries) {
    for (let l = Math.max(1, e.line - HOT_LINES_CONTEXT); l <= e.line + HOT_LINES_CONTEXT; l++) {
      if (!wanted.has(l)) wanted.set(l, null);
    }
  }
  for (const e of entries) wanted.set(e.line, e);
  const rows = [];
  let last = 0;
  for (const line of [...wanted.keys()].sort((a, b) => a - b)) {
    if (last && line > last + 1) rows.push({ gap: true });
    rows.push({ line, entry: wanted.get(line), gap: false });
    last = line;
  }
  return rows;
}

class HotLinesPanel {
  constructor(el) {
    this.el = el;
  }

  // The hottest lines of function name (a string) of profile in value
  // valueIndex; total: the function's total there (their shares' whole).
  show(profile, name, valueIndex, total, measure) {
    const index = name ? profile.strings.indexOf(name) : -1;
    const hot = hotLinesOf(profile, index, valueIndex).slice(0, HOT_LINES_SHOWN);
    const heading = document.createElement('h2');
    heading.className = 'hot-lines-title';
    if (hot.length === 0) {
      heading.textContent = name && profile.lines
        ? 'No line of ' + name + ' is known (its code has no line information, ' +
          'or it is not native code).'
        : '';
      this.el.replaceChildren(heading);
      this.el.hidden = !heading.textContent;
      return;
    }
    heading.textContent = 'Hottest lines of ' + name + ' (whole recording)';
    const files = new Map();
    for (const e of hot) {
      if (!files.has(e.file)) files.set(e.file, []);
      files.get(e.file).push(e);
    }
    const listings = [...files].map(([file, entries]) =>
      this.listing(profile, file, entries.sort((a, b) => a.line - b.line), total, measure));
    this.el.replaceChildren(heading, ...listings);
    this.el.hidden = false;
  }

  // One file's hot lines as a table: share, self, line number, source.
  listing(profile, file, entries, total, measure) {
    const source = profile.sources ? profile.sources.get(file) : null;
    const table = document.createElement('table');
    table.className = 'hot-lines-listing';
    const caption = document.createElement('caption');
    caption.textContent = profile.strings.at(file) +
      (source ? '' : ' (source not in the report)');
    const head = document.createElement('tr');
    const columns = [['total', 'share'], ['self', 'self'], ['line', 'number'], ['', 'code']];
    for (const [text, className] of columns) {
      const th = document.createElement('th');
      th.className = className;
      th.textContent = text;
      head.append(th);
    }
    const thead = document.createElement('thead');
    thead.append(head);
    table.append(caption, thead);
    const body = document.createElement('tbody');
    const rows = source ? listingRows(entries) : entries.map((e) => ({ line: e.line, entry: e }));
    for (const row of rows) {
      body.append(this.row(row, source, total, measure));
    }
    table.append(body);
    return table;
  }

  row(row, source, total, measure) {
    const tr = document.createElement('tr');
    if (row.gap) {
      tr.className = 'gap';
      tr.append(cell('\u22ee', 'share'), cell('', 'self'), cell('', 'number'), cell('', 'code'));
      return tr;
    }
    const e = row.entry;
    if (e) {
      tr.className = 'hot';
      tr.title = measure.amount(e.total) + ' on this line, ' + measure.amount(e.self) +
        ' of them in the line itself';
    }
    tr.append(cell(e ? formatPercent(e.total, total) : '', 'share'),
              cell(e && e.self ? formatPercent(e.self, total) : '', 'self'),
              cell(String(row.line), 'number'),
              cell(source ? source.lineText(row.line) : '', 'code'));
    return tr;
  }
}

function cell(text, className) {
  const td = document.createElement('td');
  td.className = className;
  td.textContent = text;
  return td;
}
