// format.js - the text the report shows for numbers: counts with thousands
// separators, bytes in binary units, durations, seconds on a time axis,
// percentages and signed changes; and labels that start a line. Pure
// functions; never touches the page.

function formatCount(n) {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function formatPercent(part, whole) {
  if (!(whole > 0)) return '-';
  const p = (100 * part) / whole;
  if (p >= 99.95 && part < whole) return '>99.9%'; // not all of it, though it rounds so
  if (p === 0 || p >= 10) return p.toFixed(1) + '%';
  if (p < 0.01) return '<0.01%';
  return p.toFixed(2) + '%';
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

// Whole bytes below 1 KiB, else one decimal in the largest unit that keeps
// the rounded number under 1024.
function formatBytes(n) {
  const sign = n < 0 ? '-' : '';
  const bytes = Math.round(Math.abs(n));
  if (bytes < 1024) return sign + bytes + ' B';
  let v = bytes / 1024;
  let u = 1;
  while (u < BYTE_UNITS.length - 1 && Number(v.toFixed(1)) >= 1024) {
    v /= 1024;
    u++;
  }
  return sign + v.toFixed(1) + ' ' + BYTE_UNITS[u];
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

// Seconds with the decimals a step of that size needs: "0.50 s" on a
// 10 ms step, "1,800 s" on a 5 s one.
function formatSeconds(s, step) {
  const digits = Math.min(6, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
  return s.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) + ' s';
}

// "Samples" for "samples": a label at the start of a line.
function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A change from before to after: "+1.5 MiB (+20.0%)", "-300 (-100%)",
// "+12 (new)", "0 (unchanged)"; format writes a magnitude.
function formatChange(before, after, format) {
  const change = after - before;
  if (change === 0) return format(0) + ' (unchanged)';
  const sign = change > 0 ? '+' : '-';
  const amount = sign + format(Math.abs(change));
  if (!(before > 0)) return amount + ' (new)';
  const percent = (100 * Math.abs(change)) / before;
  return amount + ' (' + sign + (percent < 0.1 ? '<0.1' : percent.toFixed(1)) + '%)';
}
