// browser_timeline_test.mjs - checks the timeline of the report that
// html_timeline phases writes, in headless Chromium at 1400x900 and
// 800x600, with the real pointer and keyboard, against the samples of each
// range computed from the document itself and from the rules the report
// was built by (timeline_truth.mjs): the strip's lanes (processes and
// threads) and marks; dragging across 0.5 s to 1.5 s makes the flame graph,
// summary, search, table and sandwich hold exactly that range's samples,
// phase_b (only after 2 s) absent, and says so above the strip; the
// other CPU tab shows the same range of its own samples, the heap tab
// (no timeline) its whole; the zoom stays on the same function; the link
// reopens the range after a reload; Clear range, Esc and a click without
// a drag show the whole recording again; the keys pick ranges too and
// the help lists them; the page fits both windows. No console error, no
// network request. Leaves screenshots in OUTDIR.
//
// Usage: node browser_timeline_test.mjs REPORT.html OUTDIR

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Checks, dragBetween, launchBrowser, layoutOf, nodeRect, openReport, search, settled, tooltipOf } from './browser.mjs';
import { phasesTruth, rangeTruth, readDocument } from './timeline_truth.mjs';

const [reportPath, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node browser_timeline_test.mjs REPORT.html OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const check = new Checks('browser_timeline_test');
const doc = readDocument(reportPath);
const whole = [0, 1].map((tab) => rangeTruth(doc, tab, 0, Infinity).total);
const picked = [0, 1].map((tab) => rangeTruth(doc, tab, 0.5, 1.5));
const built = phasesTruth(0.5, 1.5);
const count = (n) => Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const ACTION_TIMEOUT_MS = 5000;
const LANES = ['helper (all processes)', 'helper (4250)', 'phases (all processes)', 'phases (4242)', 'worker (4243)'];

check.equal(picked[0].total, built.total, 'the document holds what html_timeline built in 0.5-1.5 s');
check.equal(picked[0].byName.get('phase_a'), built.phase_a, 'phase_a in 0.5-1.5 s, by the document');
check.equal(picked[0].byName.get('phase_b') || 0, 0, 'phase_b has no sample in 0.5-1.5 s');
check.equal(picked[1].total, built.total, 'both CPU tabs hold the same samples');
const browser = await launchBrowser();
try {
  for (const viewport of [{ width: 1400, height: 900 }, { width: 800, height: 600 }]) {
    const size = viewport.width + 'x' + viewport.height;
    const { page, problems } = await openReport(browser, reportPath, { viewport });
    page.setDefaultTimeout(ACTION_TIMEOUT_MS);
    try {
      await checkStrip(page, size);
      await checkDrag(page, size);
      await checkOtherTabs(page, size);
      await checkLink(page, size);
      await checkClearing(page, size);
      await checkZoomKept(page, size);
      await checkKeys(page, size);
      await checkLayout(page, size);
    } catch (e) { // a step the page no longer allows: the checks so far still say what broke
      check.that(false, size + ': ' + e.message.split('\n')[0]);
    }
    for (const p of problems) check.that(false, size + ': ' + p);
  }
  const dark = await openReport(browser, reportPath, { colorScheme: 'dark', hash: '#from=0.5&until=1.5' });
  await dark.page.screenshot({ path: path.join(outDir, 'timeline-dark.png') });
  for (const p of dark.problems) check.that(false, 'dark: ' + p);
} finally {
  await browser.close();
}
process.exit(check.finish());

async function state(page) {
  return page.evaluate(() => ({ ...window.stokeReport.state, total: window.stokeReport.tree.total[0] }));
}

// Where a moment (seconds since the recording began) is on the strip, in
// page coordinates, at the height of its lanes.
async function stripPoint(page, seconds) {
  return page.evaluate((s) => {
    const { strip } = window.stokeReport;
    const g = strip.geometry();
    const r = document.getElementById('strip').getBoundingClientRect();
    return { x: r.left + g.x(s), y: r.top + g.top + 1 + (strip.lanes.length * 14) / 2 };
  }, seconds);
}

// Drags across the strip from one moment to another, as a user would.
async function drag(page, from, until) {
  await settled(page);
  await dragBetween(page, await stripPoint(page, from), await stripPoint(page, until));
}

async function words(page) {
  return page.textContent('#range-words');
}

async function checkStrip(page, size) {
  check.that(!(await page.$eval('#timeline', (e) => e.hidden)), size + ': the CPU tab has its timeline');
  const lanes = await page.evaluate(() => window.stokeReport.strip.lanes.map((l) => l.label));
  check.equal(lanes.join(' | '), LANES.join(' | '), size + ': a lane per process and per thread');
  const marks = await page.evaluate(() => window.stokeReport.strip.marksDrawn.map((m) => m.mark.name));
  check.equal(marks.join(' | '), 'load start | load end | heap 1 (exit)', size + ': the marks');
  check.equal(await words(page), 'Timeline, 4.00 s: drag across it to show a range of time only', size + ': words');
  check.equal((await state(page)).total, whole[0], size + ': the whole recording at first');
  const mark = await stripPoint(page, 0.5);
  await page.mouse.move(mark.x, mark.y);
  check.equal((await tooltipOf(page)).title, 'load start', size + ': hovering a mark names it');
  const bucket = await stripPoint(page, 1.005);
  await page.mouse.move(bucket.x, bucket.y);
  const tip = await tooltipOf(page);
  check.that(tip.rows.includes('Time1.00 s to 1.01 s'), size + ': a bucket\'s tooltip: ' + JSON.stringify(tip));
  await page.mouse.move(0, 0);
}

async function checkDrag(page, size) {
  await drag(page, 0.5, 1.5);
  const s = await state(page);
  check.equal(JSON.stringify(s.range), '{"from":0.5,"until":1.5}', size + ': the drag picks 0.5-1.5 s');
  check.equal(s.total, picked[0].total, size + ': the flame graph holds the range\'s samples');
  check.equal(await words(page), '0.50 s to 1.50 s of 4.00 s: ' + count(picked[0].total) + ' samples',
              size + ': the words above the strip');
  check.that((await page.textContent('#summary')).startsWith(count(picked[0].total) + ' samples'),
             size + ': summary ' + await page.textContent('#summary'));
  check.that(!(await page.$eval('#range-clear', (e) => e.hidden)), size + ': Clear range shows');
  check.that(await page.evaluate(() => location.hash.includes('from=0.5&until=1.5')), size + ': the link keeps it');
  check.equal(await functionTotal(page, 'phase_a'), built.phase_a, size + ': phase_a in the range');
  check.equal(await functionTotal(page, 'phase_b'), 0, size + ': phase_b is not in the range');
  check.that(await nodeRect(page, 'phase_a') !== null, size + ': phase_a is drawn');
  check.that(await nodeRect(page, 'phase_b') === null, size + ': phase_b is not drawn');
  await page.screenshot({ path: path.join(outDir, 'timeline-' + size + '.png') });
  await search(page, 'phase_b');
  check.equal(await page.textContent('#match'), 'Matched 0.0% of total (0 of ' + count(picked[0].total) +
              ' samples, 0 frames)', size + ': search finds no phase_b');
  await search(page, '');
  await page.click('#views button[data-view="table"]');
  const rows = await page.$$eval('table.functions tbody tr', (trs) => trs.map((tr) => tr.title));
  check.that(rows.includes('phase_a') && !rows.includes('phase_b'), size + ': the table: ' + JSON.stringify(rows));
  await page.click('table.functions tbody tr[title="phase_a"]');
  check.that((await page.textContent('#sandwich-title')).startsWith('phase_a: ' + count(built.phase_a) + ' samples'),
             size + ': the sandwich: ' + await page.textContent('#sandwich-title'));
  await page.click('#views button[data-view="flame"]');
}

// The flame graph's total of the frames named name (none nests in another here).
async function functionTotal(page, name) {
  return page.evaluate((n) => {
    const { tree, profile } = window.stokeReport;
    let total = 0;
    for (let i = 1; i < tree.n; i++) if (profile.strings.at(profile.frameName[tree.frame[i]]) === n) total += tree.total[i];
    return total;
  }, name);
}

// The other CPU tab shows its own samples of the same range; the heap tab
// has no timeline and shows its whole.
async function checkOtherTabs(page, size) {
  await page.click('#tab-1');
  const s = await state(page);
  check.equal(JSON.stringify(s.range), '{"from":0.5,"until":1.5}', size + ': the range stays for the next tab');
  check.equal(s.total, picked[1].total, size + ': CPU by process holds its samples of the range');
  const lanes = await page.evaluate(() => window.stokeReport.strip.lanes.map((l) => l.label));
  check.equal(lanes.join(' | '), 'helper (4250) | phases (4242)', size + ': a lane per process without threads');
  await page.click('#tab-2');
  check.that(await page.$eval('#timeline', (e) => e.hidden), size + ': no timeline on the heap tab');
  check.that((await page.textContent('#summary')).startsWith('3.0 MiB live'), size + ': the heap tab is whole');
  await page.click('#tab-0');
}

async function checkLink(page, size) {
  const before = await state(page);
  await page.reload();
  await page.waitForFunction(() => window.stokeReport);
  const after = await state(page);
  check.equal(JSON.stringify(after.range), JSON.stringify(before.range), size + ': a reload keeps the range');
  check.equal(after.total, picked[0].total, size + ': a reload shows the range\'s samples');
  check.equal(await words(page), '0.50 s to 1.50 s of 4.00 s: ' + count(picked[0].total) + ' samples',
              size + ': the words after a reload');
}

async function checkClearing(page, size) {
  await page.click('#range-clear');
  let s = await state(page);
  check.that(s.range === null && s.total === whole[0], size + ': Clear range shows the whole recording');
  check.that(await page.evaluate(() => !location.hash.includes('from=')), size + ': and the link forgets it');
  await drag(page, 0.5, 1.5);
  await page.keyboard.press('Escape');
  s = await state(page);
  check.that(s.range === null && s.total === whole[0], size + ': Esc shows the whole recording');
  await drag(page, 0.5, 1.5);
  const at = await stripPoint(page, 1);
  await page.mouse.click(at.x, at.y);
  s = await state(page);
  check.that(s.range === null && s.total === whole[0], size + ': a click on the strip shows the whole recording');
}

// A zoom stays on its function when a range is picked; Esc then resets the
// zoom first, the range next.
async function checkZoomKept(page, size) {
  await settled(page);
  const rect = await nodeRect(page, 'phase_a');
  await page.mouse.click(rect.x + 4, rect.y + rect.height / 2);
  await drag(page, 0.5, 1.5);
  const zoomed = await page.evaluate(() => {
    const { tree, profile, state: s } = window.stokeReport;
    return profile.strings.at(profile.frameName[tree.frame[s.zoom]]);
  });
  check.equal(zoomed, 'phase_a', size + ': the zoom stays on phase_a');
  await page.keyboard.press('Escape');
  let s = await state(page);
  check.that(s.zoom === 0 && s.range !== null, size + ': Esc resets the zoom first');
  await page.keyboard.press('Escape');
  s = await state(page);
  check.that(s.range === null, size + ': then the range');
}

async function checkKeys(page, size) {
  await page.keyboard.press('r');
  check.equal(await page.evaluate(() => document.activeElement.id), 'strip', size + ': r focuses the strip');
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowRight');
  const s = await state(page);
  check.equal(JSON.stringify(s.range), '{"from":0.01,"until":0.04}', size + ': keys move and widen the range');
  check.equal(s.total, rangeTruth(doc, 0, 0.01, 0.04).total, size + ': the keys\' range holds its samples');
  check.equal(await page.evaluate(() => window.stokeReport.view.selected), -1,
              size + ': the strip\'s arrow keys select no frame');
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  const help = await page.textContent('#help');
  check.that(help.includes('on the timeline: narrow or widen the range') && help.includes('Drag across the timeline'),
             size + ': the help lists the timeline\'s keys');
  await page.keyboard.press('Escape');
}

async function checkLayout(page, size) {
  await drag(page, 0.5, 1.5);
  await settled(page);
  const layout = await layoutOf(page);
  check.that(!layout.sideways, size + ': no sideways scrolling');
  check.equal(layout.offscreen.join(', '), '', size + ': every control in the window');
  check.that(layout.panel >= 150, size + ': the flame graph keeps room: ' + layout.panel + ' px');
  const right = await page.$eval('#strip', (e) => e.getBoundingClientRect().right);
  check.that(right <= page.viewportSize().width, size + ': the strip fits the window');
}
