// table.js - the function table: one row per function (per constructor
// group in a JavaScript heap) with its module (where it was defined), self
// and total (shallow and retained; and their share of the whole; before
// its share of before and change in a differential tab; the share of each V8 tier where frames
// have tiers), sorted by the column header picked, filtered by the
// search, the heaviest rows only. A row opens that function's sandwich.
// Builds its cells with textContent only.

const TABLE_ROWS_SHOWN = 500;

class FunctionTable {
  // onSort(key) when a header is picked; onPick(nameString) when a row is.
  constructor(el, onSort, onPick) {
    this.el = el;
    this.onSort = onSort;
    this.onPick = onPick;
  }

  // view: { rows (sorted), profile, measure, whole, wholeBefore (a differential
  // tab's total before), sort, matcher, differential, tiered }
  show(view) {
    const shown = [];
    let matching = 0;
    for (const row of view.rows) {
      if (view.matcher && !view.matcher.test(view.profile.strings.at(row.name))) continue;
      matching++;
      if (shown.length < TABLE_ROWS_SHOWN) shown.push(row);
    }
    const table = document.createElement('table');
    table.className = 'functions';
    table.append(this.head(view), this.body(shown, view));
    const words = tabWords(view.profile);
    const note = document.createElement('p');
    note.className = 'quiet';
    note.textContent = formatCount(matching) + ' ' + (matching === 1 ? words.rows.one : words.rows.many) +
      (view.matcher ? ' match the search' : '') +
      (matching > shown.length ? '; the first ' + formatCount(shown.length) + ' shown' : '') +
      '. ' + words.pick;
    this.el.replaceChildren(note, table);
  }

  columns(view) {
    const { rows } = tabWords(view.profile);
    const names = view.measure.columns;
    const cols = [
      { key: 'name', label: rows.column, cell: (r) => view.profile.strings.at(r.name) },
      { key: null, label: rows.place, cell: (r) => framePlace(view.profile, r.frame) },
      { key: 'self', label: names.self, cell: (r) => view.measure.format(r.self), num: true },
      { key: null, label: names.self + ' %', cell: (r) => formatPercent(r.self, view.whole), num: true },
      { key: 'total', label: names.total, cell: (r) => view.measure.format(r.total), num: true },
      { key: null, label: names.total + ' %', cell: (r) => formatPercent(r.total, view.whole), num: true },
    ];
    if (view.differential) {
      cols.push({ key: null, label: names.before, cell: (r) => view.measure.format(r.before), num: true },
                { key: null, label: names.before + ' %', cell: (r) => formatPercent(r.before, view.wholeBefore), num: true },
                { key: 'change', label: 'Change', cell: (r) => formatChange(r.before, r.total, view.measure.format), num: true });
    }
    if (view.tiered) cols.push({ key: null, label: 'V8 tiers', cell: (r) => (r.tiers ? tierMixText(r.tiers, 0) : '') });
    return cols;
  }

  head(view) {
    const row = document.createElement('tr');
    for (const col of this.columns(view)) {
      const th = document.createElement('th');
      th.scope = 'col';
      if (col.num) th.className = 'num';
      if (col.key) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = col.label;
        b.dataset.sort = col.key;
        b.addEventListener('click', () => this.onSort(col.key));
        th.append(b);
        if (col.key === view.sort) th.setAttribute('aria-sort', col.key === 'name' ? 'ascending' : 'descending');
      } else {
        th.textContent = col.label;
      }
      row.append(th);
    }
    const thead = document.createElement('thead');
    thead.append(row);
    return thead;
  }

  body(shown, view) {
    const cols = this.columns(view);
    const tbody = document.createElement('tbody');
    for (const r of shown) {
      const tr = document.createElement('tr');
      tr.tabIndex = 0;
      for (const col of cols) {
        const td = document.createElement('td');
        if (col.num) td.className = 'num';
        td.textContent = col.cell(r);
        tr.append(td);
      }
      tr.title = view.profile.strings.at(r.name);
      tr.addEventListener('click', () => this.onPick(view.profile.strings.at(r.name)));
      tr.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') this.onPick(view.profile.strings.at(r.name));
      });
      tbody.append(tr);
    }
    return tbody;
  }
}
