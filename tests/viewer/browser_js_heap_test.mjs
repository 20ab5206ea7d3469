// browser_js_heap_test.mjs - checks the JavaScript heap tabs of the reports
// make_js_heap_reports.sh writes from node's own snapshots, in headless
// Chromium, against the stacks each report's data holds (read back apart
// from the viewer by viewer/tools/html_to_folded.py) and against what
// leak_program.js made (20,000 Leak objects, each holding a string):
//  - a snapshot: the measure switch (JS bytes, JS objects), the summary
//    and the note in retained terms, the kind's label and colour, the
//    root frame as the snapshot (not a process), the tooltip (retained,
//    shallow, where the constructor is defined), the table's Constructor,
//    Shallow and Retained (Objects) columns with the values of the data,
//    the sandwich's words; the JavaScript options of a CPU profile
//    (filters, JavaScript first, tiers) leave it as written;
//  - a comparison: its note, summary, colours, tooltip and table;
//  - a recording with both heaps: each tab's note (none on the CPU tab)
//    and whether its root frames are processes or a snapshot.
// No console error, no network request. Leaves screenshots in OUTDIR.
//
// Usage: node browser_js_heap_test.mjs DIR OUTDIR (DIR: make_js_heap_reports.sh's)

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  Checks, hoverFrame, launchBrowser, nodeRect, openReport, pixelsAt, search, settled, tabNoteOf, tooltipOf,
} from './browser.mjs';
import { functionTotals, grandTotal, pathTotal, readFolded } from './folded_truth.mjs';

const LEAKS = 20000;    // leak_program.js
const ROOT = 'JS heap'; // the snapshot's root frame, not a constructor
const NOTE = 'JavaScript heap (V8 snapshot): width = bytes retained, along the dominator tree, by constructor';
const OBJECTS_NOTE = 'JavaScript heap (V8 snapshot): width = objects retained, along the dominator tree, by constructor';
const DIFF_NOTE = 'JavaScript heap (two V8 snapshots): width = bytes retained in the later one, along its ' +
  'dominator tree, by constructor; red grew, blue shrank';
const NATIVE_NOTE = 'Native heap (malloc and friends): live bytes by allocation stack';
const KIND_WORDS = 'JavaScript objects of one constructor (as DevTools groups them) or a V8 root';
const SNAPSHOT_WORDS = 'the whole snapshot: every object DevTools counts';

const [dir, outDir] = process.argv.slice(2);
if (!dir || !outDir) {
  console.error('usage: node browser_js_heap_test.mjs DIR OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const truth = (name, value) => readFolded(path.join(dir, name + '.value' + value + '.folded'));
const check = new Checks('browser_js_heap_test');
const browser = await launchBrowser();
try {
  await checkReport('snapshot', async (page) => {
    await checkSnapshot(page, truth('snapshot', 0));
    await checkObjects(page, truth('snapshot', 1));
  });
  await checkReport('snapshot', checkPlain, { hash: '#hide=native,app,v8&tiers=split&frames=all' });
  await checkReport('diff', (page) => checkDiff(page, truth('diff', 0), truth('diff', 1)));
  await checkReport('mixed', checkMixed);
  await checkReport('snapshot', (page) => page.screenshot({ path: shot('snapshot-dark') }), { colorScheme: 'dark' });
} finally {
  await browser.close();
}
process.exit(check.finish());

async function checkReport(name, fn, options = {}) {
  const { page, problems } = await openReport(browser, path.join(dir, name + '.html'), options);
  await fn(page);
  for (const p of problems) check.that(false, name + (options.hash || '') + ': ' + p);
  await page.context().close();
}

function shot(name) {
  return path.join(outDir, 'js-heap-' + name + '.png');
}

// The viewer's way with numbers, written apart from it: whole bytes below
// 1 KiB, else one decimal in the largest binary unit under 1024.
function bytesText(n) {
  if (n < 1024) return n + ' B';
  const units = ['KiB', 'MiB', 'GiB'];
  let u = 0;
  let v = n / 1024;
  while (u < units.length - 1 && Number(v.toFixed(1)) >= 1024) {
    v /= 1024;
    u++;
  }
  return v.toFixed(1) + ' ' + units[u];
}

function countText(n) {
  return n.toLocaleString('en-US');
}

// The constructor groups of folded stacks: name -> { self (shallow), total (retained) }.
function groups(stacks) {
  return functionTotals(stacks, new Set([ROOT]));
}

async function checkSnapshot(page, stacks) {
  const leak = groups(stacks).get('Leak');
  check.that(leak && leak.total > leak.self, 'the data: Leak retains its strings: ' + JSON.stringify(leak));
  check.equal(await measureButtons(page), 'JS bytes=true JS objects=false', 'measure switch');
  check.equal(await page.textContent('#summary'), bytesText(grandTotal(stacks)) + ' retained', 'summary');
  check.equal(await tabNoteOf(page), NOTE, 'note');
  await checkKind(page, stacks);
  await checkTooltip(page, stacks, 'Retained', 'Shallow', bytesText);
  await page.screenshot({ path: shot('snapshot') });
  await search(page, 'Leak');
  check.that((await page.textContent('#match')).endsWith(' of ' + bytesText(grandTotal(stacks)) + ' retained, 1 frame)'),
             'search: ' + await page.textContent('#match'));
  await search(page, '');
  await withTable(page, async (rows) => {
    check.equal(rows[0], 'Constructor|Defined at|Shallow|Shallow %|Retained|Retained %', 'table columns');
    const row = rowOf(rows, 'Leak');
    check.equal([row[2], row[4]].join('|'), bytesText(leak.self) + '|' + bytesText(leak.total),
                'Leak: shallow and retained as the data has them');
    check.that(/^script \d+:\d+:\d+$/.test(row[1]), 'Leak: defined at ' + row[1]);
    check.that(!rows.some((r) => r.startsWith(ROOT + '|')), 'the root is not a constructor');
    check.equal(await tableValues(page, 'Leak'), leak.self + ' ' + leak.total, 'Leak: the exact values of the table');
    check.that(await tableFits(page), 'the table fits its panel');
    await page.screenshot({ path: shot('table') });
  });
}

// js_objects: Leak is 20,000 objects.
async function checkObjects(page, stacks) {
  await page.click('#measure button[data-measure="js_objects"]');
  check.equal(await measureButtons(page), 'JS bytes=false JS objects=true', 'measure switch on objects');
  check.equal(await page.textContent('#summary'), countText(grandTotal(stacks)) + ' objects retained', 'objects summary');
  check.equal(await tabNoteOf(page), OBJECTS_NOTE, 'the note follows the measure');
  const leak = groups(stacks).get('Leak');
  check.equal(leak && leak.self, LEAKS, 'the data: 20,000 Leak objects');
  await checkTooltip(page, stacks, 'Retained', 'Objects', countText);
  await withTable(page, async (rows) => {
    check.equal(rows[0], 'Constructor|Defined at|Objects|Objects %|Retained|Retained %', 'objects table columns');
    const row = rowOf(rows, 'Leak');
    check.equal(row[2] + '|' + row[4], countText(LEAKS) + '|' + countText(leak.total), 'Leak: objects and retained');
    await page.click('table.functions tbody tr[title="Leak"]');
    const title = await page.textContent('#sandwich-title');
    check.that(title.startsWith('Leak: ' + countText(leak.total) + ' objects retained (') &&
               title.endsWith('the groups that dominate it above, the groups it retains below'), 'sandwich: ' + title);
  });
}

// Kind 13: a label and a colour of its own in the legend, the frames in
// it; the root frame is the snapshot, under all snapshots, not a process.
async function checkKind(page, stacks) {
  const legend = await legendOf(page);
  check.equal(legend.map((i) => i.label).join(', '), 'snapshot, constructor group', 'legend');
  const swatch = rgb(legend.find((i) => i.label === 'constructor group')?.color || '');
  check.that(isTeal(swatch), 'constructor groups have their colour (teal): ' + swatch);
  const rect = await nodeRect(page, 'Leak');
  const [frame] = await pixelsAt(page, [rect ? { x: rect.x + 2, y: rect.y + 2 } : null]);
  check.that(frame && isTeal(frame), 'the Leak frame is drawn in it: ' + frame);
  check.that(await hoverFrame(page, ROOT), 'the root frame is drawn');
  const tip = await tooltipOf(page);
  for (const row of ['Kind' + SNAPSHOT_WORDS, 'Retained' + bytesText(grandTotal(stacks))]) {
    check.that(tip.rows.includes(row), ROOT + ' tooltip has ' + row + ': ' + JSON.stringify(tip.rows));
  }
  check.equal(await crumbs(page), 'all snapshots', 'the zoom path starts at all snapshots');
}

async function legendOf(page) {
  return page.$$eval('#legend > span', (items) => items.map((i) => ({
    label: i.textContent, color: getComputedStyle(i.firstChild).backgroundColor })));
}

async function crumbs(page) {
  return page.$$eval('#crumbs button', (bs) => bs.map((b) => b.textContent).join(' > '));
}

function rgb(css) {
  return (css.match(/\d+/g) || []).slice(0, 3).map(Number);
}

function isTeal([r, g, b]) {
  return g > r + 40 && b > r + 30;
}

// The tooltip of the first drawn Leak frame: its kind and place, what it
// retains (the stacks through its path) and its own value (the stack that
// ends there).
async function checkTooltip(page, stacks, totalLabel, selfLabel, format) {
  check.that(await hoverFrame(page, 'Leak'), 'Leak is drawn');
  const tip = await tooltipOf(page);
  const names = await hoveredPath(page);
  const self = pathTotal(stacks.filter((s) => s.frames.length === names.length), names);
  const want = ['Kind' + KIND_WORDS, totalLabel + format(pathTotal(stacks, names)), selfLabel + format(self)];
  for (const row of want) check.that(tip.rows.includes(row), 'Leak tooltip has ' + row + ': ' + JSON.stringify(tip.rows));
  check.that(tip.rows.some((r) => /^Defined atscript \d+:\d+:\d+$/.test(r)), 'Leak tooltip says where: ' + tip.rows);
}

// The frame names from the root to the frame under the pointer.
async function hoveredPath(page) {
  return page.evaluate(() => {
    const { tree, profile, pointers } = window.stokeReport;
    const names = [];
    for (let v = pointers[0].hit.node; v > 0; v = tree.parent[v]) {
      names.unshift(profile.strings.at(profile.frameName[tree.frame[v]]));
    }
    return names;
  });
}

// The filters, tiers and JavaScript first of a CPU profile leave a JS
// heap tab as written, whatever the link asks.
async function checkPlain(page) {
  check.that(!(await page.isVisible('#js-bar')), 'no JavaScript bar on a JS heap tab');
  const shown = () => page.evaluate(() => {
    const app = window.stokeReport;
    const data = app.tabs[app.state.tab].profile;
    const names = [];
    for (let i = 1; i < app.tree.n; i++) names.push(app.profile.strings.at(app.profile.frameName[app.tree.frame[i]]));
    return { asWritten: app.profile === data, nodes: app.tree.n - 1, dataNodes: data.nodeDepth.length,
             collapsed: names.filter((n) => n.startsWith('[native')).length };
  });
  const before = await shown();
  check.that(before.asWritten && before.nodes === before.dataNodes && before.collapsed === 0,
             'the tree as written: ' + JSON.stringify(before));
  await page.keyboard.press('j');
  await settled(page);
  const after = await shown();
  check.that(after.asWritten && after.nodes === before.nodes && after.collapsed === 0, 'j changes nothing: ' +
             JSON.stringify(after));
}

async function checkDiff(page, beforeStacks, afterStacks) {
  const [before, after] = [groups(beforeStacks).get('Leak'), groups(afterStacks).get('Leak')];
  check.that(!before && after && after.total > 0, 'the data: Leak is new');
  check.that(await page.$eval('#measure', (e) => e.hidden), 'no measure switch in a diff');
  check.equal(await tabNoteOf(page), DIFF_NOTE, 'diff note');
  const summary = await page.textContent('#summary');
  check.that(summary.startsWith('JS bytes: after ' + bytesText(grandTotal(afterStacks)) + ' \u00b7 before ' +
                                bytesText(grandTotal(beforeStacks)) + ' \u00b7 change +'), 'diff summary: ' + summary);
  const rect = await nodeRect(page, 'Leak');
  const [red] = await pixelsAt(page, [rect ? { x: rect.x + 2, y: rect.y + 2 } : null]);
  check.that(red && red[0] > red[2] + 60, 'Leak grew: red: ' + red);
  check.that(await hoverFrame(page, 'Leak'), 'Leak is drawn');
  const names = await hoveredPath(page);
  const tip = await tooltipOf(page);
  const [was, is] = [pathTotal(beforeStacks, names), pathTotal(afterStacks, names)];
  check.equal(was, 0, 'the data: nothing under the new Leak frame before');
  for (const row of ['Retained before' + bytesText(was), 'Retained after' + bytesText(is), 'Change+' + bytesText(is) + ' (new)']) {
    check.that(tip.rows.includes(row), 'diff tooltip has ' + row + ': ' + JSON.stringify(tip.rows));
  }
  await page.screenshot({ path: shot('diff') });
  await withTable(page, async (rows) => {
    check.equal(rows[0], 'Constructor|Defined at|Shallow|Shallow %|Retained|Retained %|Retained before|Retained before %|Change',
                'diff table columns');
    const row = rowOf(rows, 'Leak');
    check.equal([row[4], row[6], row[8]].join('|'), [bytesText(after.total), '0 B', '+' + bytesText(after.total) + ' (new)'].join('|'),
                'Leak: retained after, before and the change');
    check.that(await tableFits(page), 'the diff table fits its panel');
    await page.screenshot({ path: shot('diff-table') });
  });
}

// Each tab says which heap it shows; the CPU tab says nothing.
async function checkMixed(page) {
  const names = await page.$$eval('[role="tab"]', (els) => els.map((e) => e.textContent));
  check.that(names.length === 3 && names[0] === 'CPU' && names[1].endsWith('native heap 1 (exit)') &&
             names[2] === 'JS heap after.heapsnapshot', 'tabs: ' + JSON.stringify(names));
  check.equal(await tabNoteOf(page), null, 'no note on the CPU tab');
  check.that((await legendOf(page)).some((i) => i.label === 'process'), 'the CPU tab has processes');
  check.equal(await crumbs(page), 'all processes', "the CPU tab's zoom path");
  await page.click('#tab-1');
  const note = await tabNoteOf(page);
  check.that(note.startsWith(NATIVE_NOTE + ', estimated from allocations sampled every 512.0 KiB \u00b7 taken ') &&
             / \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/.test(note), 'native heap note: ' + JSON.stringify(note));
  await page.screenshot({ path: shot('mixed-native') });
  await page.click('#tab-2');
  check.equal(await tabNoteOf(page), NOTE, 'JS heap note');
  check.equal(await measureButtons(page), 'JS bytes=true JS objects=false', 'JS heap measure switch');
  check.that(!(await page.textContent('#summary')).includes('process'), 'a JS heap has no processes');
  check.equal((await legendOf(page)).map((i) => i.label).join(', '), 'snapshot, constructor group', 'JS heap legend');
  await page.click('#tab-0');
  check.equal(await tabNoteOf(page), null, 'no note on the CPU tab again');
}

async function measureButtons(page) {
  return (await page.$$eval('#measure button', (bs) => bs.map((b) => b.textContent + '=' + b.getAttribute('aria-pressed'))))
    .join(' ');
}

// Opens the table with t (out of any field first) and hands fn its rows
// as text; f goes back to the flame graph.
async function withTable(page, fn) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('t');
  await fn(await page.$$eval('table.functions tr', (trs) => trs.map((tr) =>
    [...tr.children].map((c) => c.textContent).join('|'))));
  await page.keyboard.press('f');
}

function rowOf(rows, name) {
  const row = rows.find((r) => r.startsWith(name + '|'));
  check.that(row !== undefined, 'a table row of ' + name);
  return row ? row.split('|') : [];
}

// "self total" of the table's row named name, as the viewer holds them.
async function tableValues(page, name) {
  return page.evaluate((n) => {
    const { frameView, profile, state } = window.stokeReport;
    const row = frameView.functions[state.value].rows.find((r) => profile.strings.at(r.name) === n);
    return row ? row.self + ' ' + row.total : 'no row';
  }, name);
}

async function tableFits(page) {
  return page.$eval('#table', (e) => e.scrollWidth <= e.clientWidth);
}
