// browser_flame_test.mjs - the flame graph's frame order, merged
// recursion, keyboard selection, wheel zoom and height, in headless
// Chromium at 1400x900 and 800x600 with real pointer, keyboard and wheel
// events, against ground truth from the folded stacks of the same
// profiles (folded_truth.mjs):
//  - order: by name, every drawn frame's callees are alphabetical left to
//    right; left heavy (h, or the Left heavy button), heaviest first, the
//    heaviest by the stacks leftmost; every frame's total as the stacks
//    say; kept in the URL;
//  - recursion (m, or Merge recursion): render_tree, five deep in
//    FLAME.folded, is one frame; every frame is the stacks' with direct
//    recursion merged, one frame per distinct call path, totals unchanged;
//  - keys: the arrow keys select the frames the stacks lead to (caller,
//    heaviest callee, the callee beside it; flipped in an icicle), the
//    tooltip follows, Enter zooms, Esc lets go; not while in the search box;
//  - wheel: Ctrl+wheel over a frame makes it twice as wide per 100 px and
//    keeps the point under the pointer there; the page does not zoom (the
//    event's default is prevented); a sideways wheel pans; a plain wheel
//    neither zooms nor is prevented, and scrolls a deep graph;
//  - height: a 3-level profile (SHALLOW) leaves at most one empty row (18
//    px) between the bar above the graph and its top frame, and its roots'
//    row ends within its rows; a deep one (DEEP) still opens at its roots
//    and scrolls, and the selection scrolls into view.
// No console error, no dialog, no network request. Leaves screenshots in
// OUTDIR.
//
// Usage: node browser_flame_test.mjs FLAME.html FLAME.folded SHALLOW.html DEEP.html OUTDIR

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Checks, launchBrowser, nodeRect, openReport, settled } from './browser.mjs';
import { grandTotal, mergeDirectRecursion, pathChildren, pathTotal, readFolded } from './folded_truth.mjs';

const ROW = 18;
const STEP_TIMEOUT_MS = 5000; // a control that is missing fails its step, not the run
const RECURSIVE = 'render_tree';
const [flamePath, foldedPath, shallowPath, deepPath, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node browser_flame_test.mjs FLAME.html FLAME.folded SHALLOW.html DEEP.html OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const check = new Checks('browser_flame_test');
const stacks = readFolded(foldedPath);
const merged = mergeDirectRecursion(stacks);
const browser = await launchBrowser();
try {
  for (const viewport of [{ width: 1400, height: 900 }, { width: 800, height: 600 }]) {
    const size = viewport.width + 'x' + viewport.height;
    const flame = await openReport(browser, flamePath, { viewport });
    flame.page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await step(size + ' order', () => checkOrder(flame.page, size));
    await step(size + ' recursion', () => checkRecursion(flame.page, size));
    await step(size + ' keys', () => checkKeys(flame.page, size));
    await step(size + ' wheel', () => checkWheel(flame.page, size));
    const shallow = await openReport(browser, shallowPath, { viewport });
    await step(size + ' shallow', () => checkShallow(shallow.page, size));
    const deep = await openReport(browser, deepPath, { viewport });
    deep.page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await step(size + ' deep', () => checkDeep(deep.page, size));
    for (const { problems } of [flame, shallow, deep]) for (const p of problems) check.that(false, size + ': ' + p);
  }
} finally {
  await browser.close();
}
process.exit(check.finish());

// Runs one group of checks; one that throws (a control missing) fails and
// the next group still runs.
async function step(what, checks) {
  try {
    await checks();
  } catch (e) {
    check.that(false, what + ': ' + e.message.split('\n')[0]);
  }
}

function shot(name) {
  return path.join(outDir, 'flame-' + name + '.png');
}

async function state(page) {
  return page.evaluate(() => ({ ...window.stokeReport.state }));
}

// Every frame drawn whole (not in a merged block): { path (names from the
// outermost), total, x }.
async function drawnFrames(page) {
  await settled(page);
  return page.evaluate(() => {
    const { tree, profile, view } = window.stokeReport;
    const names = (node) => {
      const out = [];
      for (let v = node; v > 0; v = tree.parent[v]) out.unshift(profile.strings.at(profile.frameName[tree.frame[v]]));
      return out;
    };
    return view.rows.flat().filter((h) => h.count === 1 && h.node > 0)
      .map((h) => ({ path: names(h.node), total: tree.total[h.node], x: h.x }));
  });
}

// Drawn frames by their caller's path: Map "a;b" -> names left to right.
function calleesDrawn(frames) {
  const out = new Map();
  for (const f of [...frames].sort((a, b) => a.x - b.x)) {
    const key = f.path.slice(0, -1).join(';');
    out.set(key, [...(out.get(key) || []), f.path[f.path.length - 1]]);
  }
  return out;
}

// Each drawn frame's total is the value of the stacks through its path,
// and every call path of the stacks is drawn once.
function checkTotals(frames, truth, what) {
  for (const f of frames) check.equal(f.total, pathTotal(truth, f.path), what + ': total of ' + f.path.join(';'));
  const paths = new Set(truth.flatMap((s) => s.frames.map((_, i) => s.frames.slice(0, i + 1).join(';'))));
  check.equal(frames.length, paths.size, what + ': frames drawn, one per call path');
}

function heaviestCallee(truth, callers) {
  return [...pathChildren(truth, callers)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
}

async function checkOrder(page, size) {
  const byName = await drawnFrames(page);
  checkTotals(byName, stacks, size + ' by name');
  for (const [caller, names] of calleesDrawn(byName)) {
    check.equal(names.join(), [...names].sort().join(), size + ' by name: callees of ' + (caller || 'the root'));
  }
  check.equal(calleesDrawn(byName).get('main').join(), 'idle,parse,render,zeta', size + ' by name: under main');
  await page.keyboard.press('h');
  check.equal((await state(page)).order, 'heavy', size + ': h orders left heavy');
  check.that(page.url().includes('order=heavy'), size + ': the URL keeps the order: ' + page.url());
  const heavy = await drawnFrames(page);
  checkTotals(heavy, stacks, size + ' left heavy');
  const totals = new Map(heavy.map((f) => [f.path.join(';'), f.total]));
  for (const [caller, names] of calleesDrawn(heavy)) {
    const values = names.map((n) => totals.get((caller ? caller + ';' : '') + n));
    check.that(values.every((v, i) => i === 0 || values[i - 1] >= v), size + ' left heavy: under ' + caller + ': ' + values);
    if (caller) check.equal(names[0], heaviestCallee(stacks, caller.split(';')), size + ' left heavy: leftmost under ' + caller);
  }
  check.equal(calleesDrawn(heavy).get('main').join(), 'render,parse,zeta,idle', size + ' left heavy: under main');
  await page.screenshot({ path: shot('left-heavy-' + size) });
  const reopened = await openReport(browser, flamePath, { viewport: page.viewportSize(), hash: new URL(page.url()).hash });
  check.equal(calleesDrawn(await drawnFrames(reopened.page)).get('main').join(), 'render,parse,zeta,idle',
              size + ': the URL reopens left heavy');
  await reopened.page.context().close();
  await page.click('#heavy');
  check.equal((await state(page)).order, 'name', size + ': the Left heavy button orders by name again');
  check.equal(await page.getAttribute('#heavy', 'aria-pressed'), 'false', size + ': Left heavy not pressed');
}

// The longest run of RECURSIVE in one drawn path.
function recursionDepth(frames) {
  return Math.max(...frames.map((f) => {
    let run = 0;
    let best = 0;
    for (const name of f.path) best = Math.max(best, run = name === RECURSIVE ? run + 1 : 0);
    return best;
  }));
}

async function checkRecursion(page, size) {
  check.equal(recursionDepth(await drawnFrames(page)), 5, size + ': ' + RECURSIVE + ' levels as recorded');
  await page.click('#merge-recursion');
  const st = await state(page);
  check.equal(st.recursion, 'merged', size + ': Merge recursion merges');
  check.that(page.url().includes('recursion=merged'), size + ': the URL keeps merged recursion');
  const frames = await drawnFrames(page);
  check.equal(recursionDepth(frames), 1, size + ': ' + RECURSIVE + ' levels merged');
  checkTotals(frames, merged, size + ' merged');
  check.equal(await page.evaluate(() => window.stokeReport.tree.total[0]), grandTotal(stacks), size + ': total kept');
  const callees = calleesDrawn(frames).get('main;render;' + RECURSIVE);
  check.equal(callees && callees.join(), 'blit,draw,layout', size + ': the levels\' callees merged');
  await page.screenshot({ path: shot('merged-' + size) });
  await page.keyboard.press('m');
  check.equal((await state(page)).recursion, 'all', size + ': m shows recursion again');
  check.equal(recursionDepth(await drawnFrames(page)), 5, size + ': ' + RECURSIVE + ' levels again');
}

// { path of the selected frame (null: none), zoom's path, tooltip }
async function selection(page) {
  return page.evaluate(() => {
    const { tree, profile, view, state } = window.stokeReport;
    const names = (node) => {
      const out = [];
      for (let v = node; v > 0; v = tree.parent[v]) out.unshift(profile.strings.at(profile.frameName[tree.frame[v]]));
      return out.join(';');
    };
    const tip = document.getElementById('tooltip');
    return { selected: view.selected < 0 ? null : names(view.selected), zoom: names(state.zoom),
             tip: tip.hidden ? null : tip.querySelector('.name').textContent };
  });
}

// The path a move leads to by the stacks: callees heaviest, siblings by name.
function expectedStep(from, key, icicle) {
  const parent = from.slice(0, -1);
  const towardRoots = (key === 'ArrowDown') !== icicle;
  if (key === 'ArrowUp' || key === 'ArrowDown') {
    if (towardRoots) return from.length > 1 ? parent : from;
    return pathChildren(stacks, from).size > 0 ? [...from, heaviestCallee(stacks, from)] : from;
  }
  const siblings = [...pathChildren(stacks, parent).keys()].sort();
  const at = siblings.indexOf(from[from.length - 1]) + (key === 'ArrowRight' ? 1 : -1);
  return at >= 0 && at < siblings.length ? [...parent, siblings[at]] : from;
}

async function pressMoves(page, keys, icicle, start, size) {
  let want = start;
  for (const key of keys) {
    await page.keyboard.press(key);
    want = want.length === 0 && key === (icicle ? 'ArrowUp' : 'ArrowDown') ? want : expectedStep(want, key, icicle);
    const got = await selection(page);
    check.equal(got.selected, want.join(';'), size + (icicle ? ' icicle' : '') + ': ' + key + ' selects');
    check.equal(got.tip, want[want.length - 1], size + ': the tooltip tells the selected frame');
  }
  return want;
}

async function checkKeys(page, size) {
  check.equal((await selection(page)).selected, null, size + ': nothing selected at first');
  await page.keyboard.press('/');
  await page.keyboard.press('ArrowUp');
  check.equal((await selection(page)).selected, null, size + ': arrow keys in the search box are its own');
  await page.keyboard.press('Escape');
  const keys = ['ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowLeft', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown',
                'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowUp'];
  const at = await pressMoves(page, keys, false, [], size);
  await page.screenshot({ path: shot('selected-' + size) });
  await page.keyboard.press('Enter');
  const zoomed = await selection(page);
  check.equal(zoomed.zoom, at.join(';'), size + ': Enter zooms to the selected frame');
  check.equal(zoomed.selected, at.join(';'), size + ': the zoomed frame stays selected');
  const rect = await page.evaluate(() => {
    const { view, state } = window.stokeReport;
    return { width: view.clientRectOf(state.zoom)?.width, full: view.width };
  });
  check.that(Math.abs(rect.width - rect.full) < 0.5, size + ': the zoomed frame spans the width');
  await page.keyboard.press('Escape');
  const gone = await selection(page);
  check.equal([gone.zoom, gone.selected, gone.tip].join('|'), '||', size + ': Esc resets the zoom and lets go');
  await page.keyboard.press('i');
  await pressMoves(page, ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowUp'], true, [], size);
  await page.keyboard.press('Escape');
  await page.keyboard.press('i');
  await page.keyboard.press('?');
  const listed = await page.$$eval('#help kbd', (ks) => ks.map((k) => k.textContent));
  for (const k of ['\u2191 \u2193', '\u2190 \u2192', 'Enter', 'h', 'm']) check.that(listed.includes(k), size + ': help lists ' + k);
  await page.keyboard.press('Escape');
}

// Turns the wheel over the page at point with Ctrl held or not; returns
// whether the page's default action (scrolling, or zooming the page) was
// prevented.
async function wheel(page, point, dx, dy, ctrl) {
  await page.evaluate(() => {
    window.lastWheel = null;
    window.addEventListener('wheel', (e) => { window.lastWheel = { prevented: e.defaultPrevented, ctrl: e.ctrlKey }; },
                            { once: true });
  });
  await page.mouse.move(point.x, point.y);
  if (ctrl) await page.keyboard.down('Control');
  await page.mouse.wheel(dx, dy);
  if (ctrl) await page.keyboard.up('Control');
  await page.waitForFunction(() => window.lastWheel !== null);
  await settled(page);
  const got = await page.evaluate(() => window.lastWheel);
  check.equal(got.ctrl, ctrl, 'the wheel event ' + (ctrl ? 'has' : 'lacks') + ' Ctrl');
  return got.prevented;
}

async function checkWheel(page, size) {
  const before = await nodeRect(page, 'lex');
  const point = { x: before.x + 0.3 * before.width, y: before.y + before.height / 2 };
  check.that(await wheel(page, point, 0, -100, true), size + ': Ctrl+wheel does not zoom the page');
  const wider = await nodeRect(page, 'lex');
  check.that(Math.abs(wider.width / before.width - 2) < 0.01, size + ': Ctrl+wheel -100 doubles lex: ' +
             before.width + ' -> ' + wider.width);
  check.that(Math.abs((point.x - wider.x) / wider.width - 0.3) < 0.005, size + ': the point under the pointer stays');
  check.equal(await page.evaluate(() => window.visualViewport.scale), 1, size + ': the page is not zoomed');
  check.equal((await state(page)).zoom, 0, size + ': no node zoom');
  await page.screenshot({ path: shot('wheel-' + size) });
  check.that(await wheel(page, point, 40, 0, false), size + ': a sideways wheel pans the zoomed graph');
  const panned = await nodeRect(page, 'lex');
  check.that(Math.abs(wider.x - panned.x - 40) < 0.5, size + ': panned 40 px: ' + wider.x + ' -> ' + panned.x);
  await wheel(page, point, 0, 100, true);
  const back = await nodeRect(page, 'lex');
  check.that(Math.abs(back.width - before.width) < 0.5 && Math.abs(back.x - before.x) < 0.5,
             size + ': Ctrl+wheel 100 zooms back out to the whole graph');
  check.that(!(await wheel(page, point, 0, 100, false)), size + ': a plain wheel is left to scroll');
  const plain = await nodeRect(page, 'lex');
  check.equal(plain.width, before.width, size + ': a plain wheel does not zoom');
  await wheel(page, point, 0, -300, true);
  await page.keyboard.press('0');
  await settled(page);
  check.equal((await nodeRect(page, 'lex')).width, before.width, size + ': 0 resets the wheel zoom');
}

// The graph panel and the frames drawn: { top, bottom (of the panel),
// highest (top of the highest frame), rootsBottom, scrollTop, plane }.
async function graphGeometry(page) {
  await settled(page);
  return page.evaluate(() => {
    const { view, tree } = window.stokeReport;
    const panel = document.getElementById('graph').getBoundingClientRect();
    const ys = [];
    for (let i = 0; i < tree.n; i++) {
      const r = view.clientRectOf(i);
      if (r) ys.push(r.y);
    }
    const root = view.clientRectOf(0);
    return { top: panel.top, bottom: panel.bottom, highest: Math.min(...ys), rootsBottom: root && root.y + root.height,
             scrollTop: view.scroller.scrollTop, plane: view.planeHeight, depth: tree.maxDepth };
  });
}

async function checkShallow(page, size) {
  const g = await graphGeometry(page);
  check.that(g.highest - g.top <= ROW, size + ': a 3-level flame starts within a row of the top of its panel: ' +
             (g.highest - g.top) + ' px of ' + (g.bottom - g.top) + ' empty above it');
  check.that(g.rootsBottom - g.top <= (g.depth + 2) * ROW, size + ': its roots end ' + (g.rootsBottom - g.top) + ' px down');
  check.that(g.bottom - g.top > 0.5 * page.viewportSize().height, size + ': the panel keeps its height');
  await page.screenshot({ path: shot('shallow-' + size) });
}

async function checkDeep(page, size) {
  const g = await graphGeometry(page);
  check.that(g.plane > g.bottom - g.top, size + ': a deep graph is taller than its panel');
  check.that(Math.abs(g.rootsBottom - g.bottom) <= ROW, size + ': it opens at its roots, at the bottom');
  await wheel(page, { x: 300, y: (g.top + g.bottom) / 2 }, 0, -200, false);
  await page.waitForFunction((top) => window.stokeReport.view.scroller.scrollTop < top, g.scrollTop, { timeout: 3000 })
    .catch(() => {});
  check.that((await graphGeometry(page)).scrollTop < g.scrollTop, size + ': a plain wheel scrolls it');
  for (let k = 0; k < g.depth; k++) await page.keyboard.press('ArrowUp');
  const shown = await page.evaluate(() => {
    const { view } = window.stokeReport;
    const box = view.boxOf(view.selected);
    return { depth: view.tree.depth[view.selected], y: box.y, height: view.height };
  });
  check.equal(shown.depth, g.depth, size + ': the arrow keys reach the deepest frame');
  check.that(shown.y >= 0 && shown.y + ROW <= shown.height, size + ': the selected frame is scrolled into view');
}
