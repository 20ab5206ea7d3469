// browser_tabs_test.mjs - checks the three-tab report html_tabs writes in
// headless Chromium: the tab bar (names as text, clicks, arrow keys, each
// tab keeping its own measure and zoom), the CPU tab's samples and time,
// the heap tab's measure switch with human units, and the differential
// tab's colours, tooltip (before, after, change, frames only in before),
// search and function table; the note that says which heap a heap tab
// shows (none on the CPU tab). No console error, no network request.
// Leaves screenshots in OUTDIR.
//
// Usage: node browser_tabs_test.mjs REPORT.html OUTDIR

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  Checks, hoverFrame, launchBrowser, nodeRect, openReport, pixelsAt, search, tabNoteOf, tooltipOf,
} from './browser.mjs';

const TAB_NAMES = ['CPU', 'heap <b>1</b> (exit)', 'diff 1 \u2192 2'];
// The heap tab's snapshot: how exact its values are, and when it was taken.
const SNAPSHOT_WORDS = ', estimated from allocations sampled every 512.0 KiB \u00b7 taken 2026-12-03 12:00:00 UTC';

const [reportPath, outDir] = process.argv.slice(2);
if (!reportPath || !outDir) {
  console.error('usage: node browser_tabs_test.mjs REPORT.html OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const check = new Checks('browser_tabs_test');
const browser = await launchBrowser();
try {
  const light = await openReport(browser, reportPath);
  await checkTabBar(light.page);
  await checkCpu(light.page);
  await checkHeap(light.page);
  await checkKeyboard(light.page);
  await checkDiff(light.page);
  await checkRemembered(light.page);
  for (const p of light.problems) check.that(false, 'light: ' + p);
  const dark = await openReport(browser, reportPath, { colorScheme: 'dark' });
  await dark.page.click('#tab-2');
  await hover(dark.page, 'cache_put');
  await dark.page.screenshot({ path: path.join(outDir, 'tabs-diff-dark.png') });
  for (const p of dark.problems) check.that(false, 'dark: ' + p);
} finally {
  await browser.close();
}
process.exit(check.finish());

async function checkTabBar(page) {
  const tabs = await page.$$eval('[role="tab"]', (els) => els.map((e) => ({
    name: e.textContent, selected: e.getAttribute('aria-selected'), tabIndex: e.tabIndex })));
  check.equal(tabs.map((t) => t.name).join(' | '), TAB_NAMES.join(' | '), 'tab names, as text');
  check.equal(tabs.map((t) => t.selected).join(','), 'true,false,false', 'first tab selected');
  check.equal(tabs.map((t) => t.tabIndex).join(','), '0,-1,-1', 'only the open tab in the Tab order');
  check.equal(await page.evaluate(() => document.querySelectorAll('b, img').length), 0,
              'no element made from a name');
  check.equal(await page.getAttribute('#graph', 'aria-labelledby'), 'tab-0', 'panel labelled by its tab');
}

async function checkCpu(page) {
  check.that((await page.textContent('#summary')).startsWith('500 samples \u00b7 500 ms'),
             'CPU summary: ' + await page.textContent('#summary'));
  check.that(await page.$eval('#measure', (e) => e.hidden), 'no measure switch for one value');
  check.equal(await tabNoteOf(page), null, 'no heap note on a CPU tab');
  await expectTooltip(page, 'handle', ['Samples450 (self 300)', 'Time450 ms', 'Of total90.0%']);
  await search(page, 'parse');
  await expectMatch(page, 'Matched 30.0% of total (150 of 500 samples, 1 frame)');
  await page.screenshot({ path: path.join(outDir, 'tabs-cpu.png') });
}

async function checkHeap(page) {
  await page.click('#tab-1');
  check.equal(await state(page, 'tab'), 1, 'clicking the second tab opens it');
  check.that((await page.textContent('#summary')).startsWith('40.0 MiB live'),
             'heap summary: ' + await page.textContent('#summary'));
  const buttons = await page.$$eval('#measure button', (els) => els.map((e) => e.textContent + '=' + e.getAttribute('aria-pressed')));
  check.equal(buttons.join(' '), 'Live=true Allocated=false Bytes=true Objects=false', 'measure switch');
  check.equal(await tabNoteOf(page), 'Native heap (malloc and friends): live bytes by allocation stack' + SNAPSHOT_WORDS, 'heap note');
  check.that(await nodeRect(page, 'make_buffer') === null, 'nothing live under make_buffer: not drawn');
  await expectTooltip(page, 'cache_put', ['Live bytes30.0 MiB', 'Of total75.0%']);
  await search(page, 'malloc');
  await expectMatch(page, 'Matched 100.0% of total (40.0 MiB of 40.0 MiB live, 2 frames)');
  await page.screenshot({ path: path.join(outDir, 'tabs-heap-live.png') });

  await page.click('#measure button[data-measure="alloc"]');
  check.equal(await state(page, 'value'), 2, 'Allocated picks alloc_bytes');
  check.equal(await tabNoteOf(page), 'Native heap (malloc and friends): allocated bytes by allocation stack' + SNAPSHOT_WORDS,
              'the heap note follows the measure');
  check.that((await page.textContent('#summary')).startsWith('240.0 MiB allocated'),
             'allocated summary: ' + await page.textContent('#summary'));
  await expectMatch(page, 'Matched 100.0% of total (240.0 MiB of 240.0 MiB allocated, 3 frames)');
  await expectTooltip(page, 'make_buffer', ['Allocated bytes200.0 MiB', 'Of total83.3%']);

  await page.click('#measure button[data-measure="objects"]');
  check.equal(await state(page, 'value'), 3, 'Objects keeps Allocated: alloc_objects');
  check.that((await page.textContent('#summary')).startsWith('51,213 allocated objects'),
             'allocated objects summary: ' + await page.textContent('#summary'));
  await expectTooltip(page, 'make_buffer', ['Allocated objects51,200']);
  await page.screenshot({ path: path.join(outDir, 'tabs-heap-alloc-objects.png') });
  await search(page, '');
}

async function checkKeyboard(page) {
  await page.focus('#tab-1');
  await page.keyboard.press('ArrowRight');
  check.equal(await state(page, 'tab'), 2, 'ArrowRight opens the next tab');
  check.equal(await page.evaluate(() => document.activeElement.id), 'tab-2', 'ArrowRight moves the focus');
  await page.keyboard.press('Home');
  check.equal(await state(page, 'tab'), 0, 'Home opens the first tab');
  await page.keyboard.press('ArrowLeft');
  check.equal(await state(page, 'tab'), 2, 'ArrowLeft wraps to the last tab');
  check.equal(await page.evaluate(() => window.stokeReport.view.selected), -1, 'the tabs\' arrow keys select no frame');
  await page.keyboard.press('?');
  const help = await page.textContent('#help');
  check.that(/\u2190 \u2192on the tabs/.test(help), 'the help names the arrow keys of the tabs: ' + JSON.stringify(help));
  await page.keyboard.press('Escape');
}

async function checkDiff(page) {
  check.that(await page.$eval('#measure', (e) => e.hidden), 'no measure switch in a diff tab');
  check.equal(await tabNoteOf(page), 'Native heap (malloc and friends): the change between two snapshots by ' +
              'allocation stack; width = after, red grew, blue shrank', 'diff note');
  check.equal(await page.textContent('#summary'),
              'after 41.5 MiB (1 process) \u00b7 before 36.0 MiB (1 process) \u00b7 change +5.5 MiB (+15.3%) \u00b7 ' +
              'as recorded', 'diff summary');
  check.equal(await page.textContent('#legend'), 'grew (full: +10.0 MiB)shrank (full: -10.0 MiB)unchanged',
              'diff legend, with what full red and blue stand for');
  await expectTooltip(page, 'main', ['Before36.0 MiB', 'After41.5 MiB', 'Change+5.5 MiB (+15.3%)',
                                     'Share100.0% \u2192 100.0% (0.0 pts)', 'Gone1 frame only in before (2.0 MiB)']);
  await expectTooltip(page, 'make_buffer', ['Before4.0 MiB', 'After1.0 MiB', 'Change-3.0 MiB (-75.0%)']);
  await expectTooltip(page, 'new_path', ['Before0 B', 'After512.0 KiB', 'Change+512.0 KiB (new)']);
  await expectTooltip(page, 'load_config', ['Change0 B (unchanged)']);
  await expectTooltip(page, 'cache_put', ['Before20.0 MiB', 'After30.0 MiB', 'Change+10.0 MiB (+50.0%)']);
  await page.screenshot({ path: path.join(outDir, 'tabs-diff.png') });
  check.that(await nodeRect(page, 'warmup') === null, 'warmup (only before) has no width');
  await checkDiffColours(page);
  await search(page, 'malloc');
  await expectMatch(page, 'Matched 100.0% of after (41.5 MiB of 41.5 MiB; before 36.0 MiB of 36.0 MiB), ' +
                          '4 frames, 1 only in before');
  await search(page, 'warmup');
  await expectMatch(page, 'Matched 0.0% of after (0 B of 41.5 MiB; before 2.0 MiB of 36.0 MiB), ' +
                          '0 frames, 1 only in before');
  await search(page, '');
  await checkDiffTable(page);
}

// The function table of a diff tab has before and change columns; warmup,
// gone after, is listed with its change.
async function checkDiffTable(page) {
  await page.keyboard.press('Escape'); // out of the search box, where t is typed
  await page.keyboard.press('t');
  const rows = await page.$$eval('table.functions tr', (trs) => trs.map((tr) =>
    [...tr.children].map((c) => c.textContent).join('|')));
  check.equal(rows[0], 'Function|Module|Self|Self %|Total|Total %|Before|Before %|Change', 'diff table columns');
  check.that(rows.includes('cache_put|server|0 B|0.0%|30.0 MiB|72.3%|20.0 MiB|55.6%|+10.0 MiB (+50.0%)'),
             'diff table: cache_put row in ' + JSON.stringify(rows));
  check.that(rows.includes('warmup|server|0 B|0.0%|0 B|0.0%|2.0 MiB|5.56%|-2.0 MiB (-100.0%)'),
             'diff table: warmup, only before, in ' + JSON.stringify(rows));
  await page.screenshot({ path: path.join(outDir, 'tabs-diff-table.png') });
  await page.keyboard.press('f');
}

// Grew red, shrank blue, unchanged grey; the largest change is the most saturated.
async function checkDiffColours(page) {
  const names = ['cache_put', 'make_buffer', 'load_config', 'new_path'];
  const points = [];
  for (const name of names) {
    const rect = await nodeRect(page, name);
    points.push(rect ? { x: rect.x + 2, y: rect.y + 2 } : null); // off the label
  }
  const [grew, shrank, same, small] = await pixelsAt(page, points);
  const saturation = ([r, g, b]) => Math.max(r, g, b) - Math.min(r, g, b);
  check.that(grew && grew[0] > grew[2] + 60, 'grown frame is red: ' + grew);
  check.that(shrank && shrank[2] > shrank[0] + 20, 'shrunk frame is blue: ' + shrank);
  check.that(same && saturation(same) < 12, 'unchanged frame is neutral: ' + same);
  check.that(small && small[0] > small[2] && saturation(small) < saturation(grew),
             'a small growth is a paler red than the largest: ' + small + ' vs ' + grew);
}

// Each tab keeps its measure; the heap tab comes back as it was left.
async function checkRemembered(page) {
  await page.click('#tab-1');
  check.equal(await state(page, 'value'), 3, 'the heap tab keeps its measure');
  const main = await nodeRect(page, 'main');
  await page.mouse.click(main.x + main.width / 2, main.y + main.height / 2);
  await page.click('#tab-0');
  check.equal(await state(page, 'zoom'), 0, 'the CPU tab is not zoomed');
  await page.click('#tab-1');
  check.that(await state(page, 'zoom') !== 0, 'the heap tab keeps its zoom');
}

async function state(page, key) {
  return page.evaluate((k) => window.stokeReport.state[k], key);
}

async function expectMatch(page, want) {
  check.equal(await page.textContent('#match'), want, 'search result');
}

async function hover(page, name) {
  check.that(await hoverFrame(page, name), 'frame ' + name + ' is drawn');
}

// Hovers the frame and checks each "labelvalue" pair is in the tooltip.
async function expectTooltip(page, name, wants) {
  await hover(page, name);
  const tip = await tooltipOf(page);
  check.that(!tip.hidden, 'tooltip shows over ' + name);
  check.equal(tip.title, name, 'tooltip title');
  for (const want of wants) {
    check.that(tip.rows.includes(want), 'tooltip of ' + name + ' has ' + JSON.stringify(want) +
               ': ' + JSON.stringify(tip.rows));
  }
}
