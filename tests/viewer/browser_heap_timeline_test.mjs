// browser_heap_timeline_test.mjs - checks the live heap over time in the
// reports test_heap_timeline.py records of tests/heap's growth program
// (timed: 4 MiB through base_x first, +8 MiB through grow_g between the
// moments BEFORE and AFTER it printed, nothing else live then but stdio's
// buffer), in headless Chromium at 1400x900 and 800x600, with the real
// pointer:
//  - the CPU tab's timeline has one live heap lane, its data's peak the
//    one the trace's HEAP_TOTALS give (PEAK, read by heap_totals), labelled
//    with its scale; hovering it tells the time and the live bytes there;
//  - dragging across BEFORE..AFTER (on the CPU tab's strip, and on the
//    growth tab's own) makes the tab "heap: grew in range" show exactly
//    +8 MiB on grow_g and 0 elsewhere, the range in its words; a range
//    that ends before the growth shows none;
//  - the report of the same program recorded without --heap has no heap
//    lane and no growth tab.
// No console error, no network request. Leaves screenshots in OUTDIR.
//
// Usage: node browser_heap_timeline_test.mjs HEAP.html CPU.html BEFORE_NS AFTER_NS PEAK OUTDIR

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Checks, dragBetween, launchBrowser, nodeRect, openReport, settled, tabNoteOf, tooltipOf } from './browser.mjs';

const [heapReport, cpuReport, beforeNs, afterNs, peakText, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node browser_heap_timeline_test.mjs HEAP.html CPU.html BEFORE_NS AFTER_NS PEAK OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const check = new Checks('browser_heap_timeline_test');
const MIB = 1024 * 1024;
const GROWTH = 8 * MIB;
const SMALL = 64 * 1024; // stdio's buffers and the like, beside the program's own blocks
const PEAK = Number(peakText);
const GROWTH_TAB = 'heap: grew in range';
const ACTION_TIMEOUT_MS = 5000;
const usOf = (ns) => Number(BigInt(ns) / 1000n);

check.that(PEAK >= 12 * MIB && PEAK < 12 * MIB + SMALL, 'the trace\'s peak is growth\'s 12 MiB: ' + PEAK);
const browser = await launchBrowser();
try {
  for (const viewport of [{ width: 1400, height: 900 }, { width: 800, height: 600 }]) {
    const size = viewport.width + 'x' + viewport.height;
    const { page, problems } = await openReport(browser, heapReport, { viewport });
    page.setDefaultTimeout(ACTION_TIMEOUT_MS);
    try {
      const moments = await momentsOf(page);
      await checkLane(page, size, moments);
      await checkGrowth(page, size, moments);
    } catch (e) { // a step the page no longer allows: the checks so far still say what broke
      check.that(false, size + ': ' + e.message.split('\n')[0]);
    }
    for (const p of problems) check.that(false, size + ': ' + p);
  }
  await checkWithoutHeap();
} finally {
  await browser.close();
}
process.exit(check.finish());

// BEFORE and AFTER in seconds since the recording began, as the axis counts.
async function momentsOf(page) {
  const startUs = await page.evaluate(() => window.stokeReport.report.span.startUs);
  return { before: (usOf(beforeNs) - startUs) / 1e6, after: (usOf(afterNs) - startUs) / 1e6 };
}

// Where a moment is on the strip, in page coordinates, on the live heap lane.
async function heapPoint(page, seconds) {
  return page.evaluate((s) => {
    const { strip } = window.stokeReport;
    const g = strip.geometry();
    const r = document.getElementById('strip').getBoundingClientRect();
    return { x: r.left + g.x(s), y: r.top + g.heapTop + 14 };
  }, seconds);
}

// Drags across the strip from one moment to another, as a user would.
async function drag(page, from, until) {
  await settled(page);
  await dragBetween(page, await heapPoint(page, from), await heapPoint(page, until));
  await settled(page);
}

// The tooltip of the live heap lane at a moment, and the lane's bytes in
// that moment's bucket by the data.
async function hoverHeap(page, seconds) {
  await page.mouse.move(0, 0);
  const at = await heapPoint(page, seconds);
  await page.mouse.move(at.x, at.y);
  const bytes = await page.evaluate((s) => {
    const { strip } = window.stokeReport;
    const { timeline, span } = strip.model;
    return strip.heapLanes[0].steps[Math.floor((s * 1e6 - (timeline.startUs - span.startUs)) / timeline.bucketUs)];
  }, seconds);
  return { tip: await tooltipOf(page), bytes };
}

async function checkLane(page, size, moments) {
  check.that(!(await page.$eval('#timeline', (e) => e.hidden)), size + ': the CPU tab has its timeline');
  const lanes = await page.evaluate(() => window.stokeReport.strip.heapLanes.map((l) => ({ peak: l.peak })));
  check.equal(lanes.length, 1, size + ': one live heap lane');
  check.equal(lanes[0].peak, PEAK, size + ': the lane\'s peak is the trace\'s HEAP_TOTALS peak');
  check.equal(await page.evaluate(() => window.stokeReport.strip.heapLabel(window.stokeReport.strip.heapLanes[0])),
              'live heap 0\u2013' + (PEAK / MIB).toFixed(1) + ' MiB', size + ': the lane says its scale');
  const grown = await hoverHeap(page, moments.after - 0.5);
  check.that(grown.bytes >= 12 * MIB && grown.bytes < 12 * MIB + SMALL,
             size + ': 12 MiB live after the growth: ' + grown.bytes);
  check.that(grown.tip.title && grown.tip.title.startsWith('Live heap of growth ('),
             size + ': hovering names the lane: ' + grown.tip.title);
  check.that(grown.tip.rows.some((r) => r.startsWith('Time') && r.endsWith(' s')),
             size + ': hovering tells the time: ' + grown.tip.rows);
  check.that(grown.tip.rows.includes('Live heap12.0 MiB (' + count(grown.bytes) + ' bytes)'),
             size + ': hovering tells the live bytes: ' + grown.tip.rows);
  const base = await hoverHeap(page, moments.before);
  check.that(base.bytes >= 4 * MIB && base.bytes < 4 * MIB + SMALL, size + ': 4 MiB live before it: ' + base.bytes);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(outDir, 'heap-timeline-cpu-' + size + '.png') });
}

function count(n) {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// { grown: the change of the frames named grow_g, all: of the whole tab }
// in the open tab's flame graph.
async function growthShown(page) {
  return page.evaluate(() => {
    const { tree, profile } = window.stokeReport;
    let grown = 0;
    for (let i = 1; i < tree.n; i++) {
      if (profile.strings.at(profile.frameName[tree.frame[i]]) === 'grow_g') grown += tree.total[i] - tree.before[i];
    }
    return { grown, all: tree.total[0] - tree.before[0] };
  });
}

async function openGrowthTab(page) {
  const index = await page.evaluate((name) => window.stokeReport.report.tabs.findIndex((t) => t.name === name),
                                    GROWTH_TAB);
  check.that(index > 0, 'the --heap report has the tab "' + GROWTH_TAB + '"');
  await page.click('#tab-' + index);
}

async function expectGrowth(page, what, grown) {
  const shown = await growthShown(page);
  check.equal(shown.grown, grown, what + ': grow_g\'s change');
  check.equal(shown.all - shown.grown, 0, what + ': the change elsewhere');
}

async function checkGrowth(page, size, moments) {
  await drag(page, moments.before, moments.after);
  const range = await page.evaluate(() => window.stokeReport.state.range);
  check.that(range && range.from <= moments.before + 0.01 && range.until >= moments.after - 0.01,
             size + ': the drag picks the moments: ' + JSON.stringify(range));
  await openGrowthTab(page);
  await expectGrowth(page, size + ', picked on the CPU tab', GROWTH);
  check.that(await nodeRect(page, 'grow_g') !== null, size + ': grow_g is drawn');
  const words = await page.textContent('#range-words');
  check.that(words.includes(': live heap +8.0 MiB'), size + ': the words above the strip: ' + words);
  const note = await tabNoteOf(page);
  const step = (s) => s.toFixed(2) + ' s';
  check.that(note && note.includes('live bytes at ' + step(range.until) + ' minus at ' + step(range.from)),
             size + ': the note says which range: ' + note);
  await page.screenshot({ path: path.join(outDir, 'heap-timeline-growth-' + size + '.png') });
  await page.click('#range-clear');
  await drag(page, moments.before, moments.after);
  await expectGrowth(page, size + ', picked on the growth tab', GROWTH);
  await drag(page, moments.before - 1, moments.before + 1);
  await expectGrowth(page, size + ', a range before the growth', 0);
}

async function checkWithoutHeap() {
  const { page, problems } = await openReport(browser, cpuReport, {});
  const shown = await page.evaluate(() => ({
    lanes: window.stokeReport.report.liveHeap.length,
    drawn: window.stokeReport.strip.heapLanes.length,
    tabs: window.stokeReport.report.tabs.map((t) => t.name),
  }));
  check.equal(shown.lanes + shown.drawn, 0, 'without --heap: no live heap lane');
  check.that(!shown.tabs.includes(GROWTH_TAB), 'without --heap: no growth tab: ' + shown.tabs);
  check.that(!(await page.$eval('#timeline', (e) => e.hidden)), 'without --heap: the CPU timeline still shows');
  for (const p of problems) check.that(false, 'without --heap: ' + p);
}
