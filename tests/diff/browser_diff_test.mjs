// browser_diff_test.mjs - reads a `stoke diff` report of two recordings in
// headless Chromium (tests/viewer/browser.mjs) and checks that the flame
// graph and the function table tell one story: for each function named,
// the tooltip's before and after are the table row's Before and Total, the
// change is not "(new)" (its frames were matched across the two builds),
// and nothing but sampling noise is only in before. The header says one process per side and
// how the sides are scaled; the legend what full red and blue stand for.
// Prints the numbers it read as JSON, for test_diff.py to check against the
// programs' ground truth.
//
// Usage: node browser_diff_test.mjs REPORT.html SCALE_WORDS FUNCTION...

import { Checks, hoverFrame, launchBrowser, openReport, tooltipOf } from '../viewer/browser.mjs';

const GONE_NOISE = 0.02; // of a function's samples before, in frames only before

const [reportPath, scaleWords, ...functions] = process.argv.slice(2);
if (!reportPath || !scaleWords || functions.length === 0) {
  console.error('usage: node browser_diff_test.mjs REPORT.html SCALE_WORDS FUNCTION...');
  process.exit(2);
}
const check = new Checks('browser_diff_test');
const browser = await launchBrowser();
const seen = {};
try {
  const { page, problems } = await openReport(browser, reportPath);
  const summary = await page.textContent('#summary');
  check.that(/after [\d,]+ samples \(1 process\) \u00b7 before [\d,]+ samples \(1 process\)/.test(summary),
             'one process and its samples on each side: ' + summary);
  check.that(summary.includes(scaleWords), 'the header says "' + scaleWords + '": ' + summary);
  const legend = await page.textContent('#legend');
  check.that(/^grew \(full: \+.+\)shrank \(full: -.+\)unchanged$/.test(legend), 'legend with its scale: ' + legend);
  for (const name of functions) seen[name] = { flame: await flameFacts(page, name) };
  await page.keyboard.press('t');
  const rows = await page.$$eval('table.functions tr', (trs) => trs.map((tr) =>
    [...tr.children].map((c) => c.textContent)));
  const head = rows[0];
  check.equal(head.join('|'), 'Function|Module|Self|Self %|Total|Total %|Before|Before %|Change', 'table columns');
  for (const name of functions) {
    const matching = rows.filter((r) => r[0] === name);
    check.equal(matching.length, 1, name + ': one table row');
    const row = matching[0] || [];
    seen[name].table = { before: row[6], after: row[4], change: row[8], shareBefore: row[7], shareAfter: row[5] };
    const { flame, table } = seen[name];
    check.equal(table.before, flame.Before, name + ': table Before = flame graph Before');
    check.equal(table.after, flame.After, name + ': table Total = flame graph After');
    check.equal(table.change, flame.Change, name + ': table Change = flame graph Change');
    check.that(flame.Change && !flame.Change.includes('(new)'), name + ' matched across the builds: ' + flame.Change);
    check.that(goneShare(flame) <= GONE_NOISE, name + ': no more than sampling noise only in before under it: ' + flame.Gone);
  }
  for (const p of problems) check.that(false, p);
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
process.exit(check.finish());

// The share of a function's before value in frames only before: a rare
// leaf sampled once on one side is noise; frames not matched across the
// builds would leave the function's whole callees there.
function goneShare(flame) {
  if (!flame.Gone) return 0;
  const gone = Number((flame.Gone.match(/\(([\d,]+)\)$/) || [, 'NaN'])[1].replace(/,/g, ''));
  return gone / Number(flame.Before.replace(/,/g, ''));
}

// The tooltip of the first frame named name: { label: value }.
async function flameFacts(page, name) {
  check.that(await hoverFrame(page, name), 'frame ' + name + ' is drawn');
  const tip = await tooltipOf(page);
  check.equal(tip.title, name, 'tooltip title');
  const facts = {};
  for (const label of ['Before', 'After', 'Change', 'Share', 'Gone']) {
    const row = tip.rows.find((r) => r.startsWith(label));
    if (row) facts[label] = row.slice(label.length);
  }
  return facts;
}
