// format.js - the text the report shows for numbers: counts with thousands
// separators, durations and percentages. Pure functions; never touches the page.

function formatCount(n) {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function formatPercent(part, whole) {
  if (!(whole > 0)) return '-';
  const p = (100 * part) / whole;
  if (p === 0 || p >= 10) return p.toFixed(1) + '%';
  if (p < 0.01) return '<0.01%';
  return p.toFixed(2) + '%';
}

const DURATION_UNITS = [
  [60e9, 'min'],
  [1e9, 's'],
  [1e6, 'ms'],
  [1e3, '\u00b5s'],
  [1, 'ns'],
];

function formatDuration(ns) {
  for (const [size, unit] of DURATION_UNITS) {
    if (ns >= size || size === 1) {
      const v = ns / size;
      return (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) + ' ' + unit;
    }
  }
  return '';
}
