// browser_views_test.mjs - checks the views of a stoke report in headless
// Chromium against ground truth from the folded stacks of the same profile
// (folded_truth.mjs): regex search share and frame count, click to zoom,
// icicle, the function table (values and both sort orders), the sandwich of
// FUNCTION (its total, callers and callees), colour by name, the keys and
// their help overlay, the state in the URL reopening the same view, names
// shown as text, and the page usable at 1280x720 and 1920x1080 (no
// sideways scrolling, every control in view). No console error, no dialog,
// no network request. Leaves a screenshot of each view in OUTDIR.
//
// Usage: node browser_views_test.mjs REPORT.html STACKS.folded FUNCTION OUTDIR

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Checks, launchBrowser, layoutOf, nodeRect, openReport, search } from './browser.mjs';
import { functionTotals, grandTotal, readFolded, sandwichTruth } from './folded_truth.mjs';

const [reportPath, foldedPath, fn, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node browser_views_test.mjs REPORT.html STACKS.folded FUNCTION OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const label = path.basename(reportPath, '.html');
const check = new Checks('browser_views_test ' + label);
const stacks = readFolded(foldedPath);
const whole = grandTotal(stacks);
const truth = sandwichTruth(stacks, fn);
check.that(truth.total > 0, 'FUNCTION ' + JSON.stringify(fn) + ' is in no stack of ' + foldedPath);
const count = (n) => Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const browser = await launchBrowser();
try {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    const { page, problems } = await openReport(browser, reportPath, { viewport });
    const size = viewport.width + 'x' + viewport.height;
    if (viewport.width === 1280) {
      await checkSearch(page);
      await checkZoom(page);
      await checkIcicle(page);
      await checkTable(page);
      await checkSandwich(page);
      await checkColours(page);
      await checkKeys(page);
      await checkReopen(page);
    }
    await checkLayout(page, size);
    for (const p of problems) check.that(false, size + ': ' + p);
  }
  const dark = await openReport(browser, reportPath, { colorScheme: 'dark' });
  await dark.page.evaluate((f) => window.stokeReport.setState({ view: 'sandwich', fn: f }), fn);
  await dark.page.screenshot({ path: shot('sandwich-dark') });
  for (const p of dark.problems) check.that(false, 'dark: ' + p);
} finally {
  await browser.close();
}
process.exit(check.finish());

function shot(name) {
  return path.join(outDir, label + '-' + name + '.png');
}


async function state(page) {
  return page.evaluate(() => ({ ...window.stokeReport.state }));
}

async function checkSearch(page) {
  await search(page, '/^' + escapeRegex(fn) + '$/');
  const text = await page.textContent('#match');
  const share = (100 * truth.total / whole);
  const want = count(truth.total) + ' of ' + count(whole);
  check.that(text.includes(want), 'search share: ' + JSON.stringify(text) + ' lacks ' + JSON.stringify(want));
  check.that(text.includes(share >= 10 ? share.toFixed(1) + '%' : share.toFixed(2) + '%'),
             'search percent in ' + JSON.stringify(text));
  check.that(text.includes(count(truth.nodes) + (truth.nodes === 1 ? ' frame' : ' frames')),
             'search highlights ' + truth.nodes + ' frames: ' + JSON.stringify(text));
  const highlighted = await page.evaluate(() => {
    const { view } = window.stokeReport;
    return view.rows.flat().filter((h) => h.count === 1 && view.nodeMatch[h.node]).length;
  });
  check.equal(highlighted, truth.nodes, 'frames drawn highlighted');
  await page.screenshot({ path: shot('search') });
  await search(page, '');
}

async function checkZoom(page) {
  const rect = await nodeRect(page, fn);
  check.that(rect !== null, fn + ' is drawn');
  if (!rect) return;
  await page.mouse.click(rect.x + Math.min(rect.width / 2, 20), rect.y + rect.height / 2);
  const zoomed = await page.evaluate(() => {
    const { tree, profile, view, state } = window.stokeReport;
    return { name: profile.strings.at(profile.frameName[tree.frame[state.zoom]]),
             width: view.clientRectOf(state.zoom)?.width, full: view.width };
  });
  check.equal(zoomed.name, fn, 'click zooms to the frame clicked');
  check.that(Math.abs(zoomed.width - zoomed.full) < 0.5, 'the zoomed frame spans the width');
  await page.screenshot({ path: shot('zoom') });
  await page.keyboard.press('0');
  check.equal((await state(page)).zoom, 0, '0 resets the zoom');
}

// The root row is at the bottom of the canvas in a flame graph, at the top
// in an icicle.
async function checkIcicle(page) {
  const rootY = () => page.evaluate(() => {
    const { view } = window.stokeReport;
    const r = view.clientRectOf(0);
    return r ? r.y - view.canvas.getBoundingClientRect().top : null;
  });
  const flameY = await rootY();
  await page.keyboard.press('i');
  const icicleY = await rootY();
  check.that((await state(page)).icicle, 'i turns the graph into an icicle');
  check.equal(icicleY, 0, 'icicle: the root row on top');
  check.that(flameY > icicleY + 100, 'flame: the root row at the bottom (' + flameY + ')');
  await page.screenshot({ path: shot('icicle') });
  await page.click('#icicle');
  check.that(!(await state(page)).icicle, 'the Icicle button turns it back');
}

async function tableRows(page) {
  return page.$$eval('table.functions tbody tr', (trs) => trs.map((tr) => {
    const cells = [...tr.children].map((td) => td.textContent);
    return { name: cells[0], self: Number(cells[2].replace(/,/g, '')), total: Number(cells[4].replace(/,/g, '')) };
  }));
}

async function checkTable(page) {
  await page.keyboard.press('t');
  const skip = new Set(await page.evaluate(() => {
    const { profile } = window.stokeReport;
    const names = [];
    profile.frameKind.forEach((k, f) => { if (k >= 5) names.push(profile.strings.at(profile.frameName[f])); });
    return names;
  }));
  const want = functionTotals(stacks, skip);
  // By self first, as the terminal summary lists functions; then by total.
  for (const key of ['self', 'total']) {
    if (key === 'total') await page.click('th button[data-sort="total"]');
    const rows = await tableRows(page);
    check.equal(rows.length, Math.min(want.size, 500), 'table rows (' + key + ')');
    const sorted = rows.every((r, i) => i === 0 || rows[i - 1][key] >= r[key]);
    check.that(sorted, 'table sorted by ' + key + ': ' + rows.map((r) => r[key]).join(','));
    for (const r of rows) {
      const w = want.get(r.name);
      check.that(w && w.self === r.self && w.total === r.total,
                 'table row ' + JSON.stringify(r) + ' vs truth ' + JSON.stringify(w));
    }
    check.equal(await page.getAttribute('th[aria-sort]', 'aria-sort'), 'descending', 'sorted column marked');
    await page.screenshot({ path: shot('table-by-' + key) });
  }
  await page.click('th button[data-sort="self"]');
}

async function sandwichFacts(page) {
  return page.evaluate(() => {
    const { sandwich, profile } = window.stokeReport;
    const side = (tree) => {
      const kids = [];
      for (let k = tree.childStart[0]; k < tree.childStart[1]; k++) {
        const c = tree.children[k];
        kids.push([profile.strings.at(profile.frameName[tree.frame[c]]), tree.total[c]]);
      }
      return { total: tree.total[0], kids };
    };
    const rootRect = sandwich.callers.clientRectOf(0);
    return { callers: side(sandwich.callers.tree), callees: side(sandwich.callees.tree),
             title: document.getElementById('sandwich-title').textContent,
             rootWidth: rootRect && rootRect.width, width: sandwich.callers.width };
  });
}

function sameMap(got, want, what) {
  const g = [...got].sort().map(([k, v]) => k + '=' + v).join(', ');
  const w = [...want].sort().map(([k, v]) => k + '=' + v).join(', ');
  check.equal(g, w, what);
}

// Picking the function's row opens its sandwich.
async function checkSandwich(page) {
  const rows = await page.$$('table.functions tbody tr');
  let picked = false;
  for (const row of rows) {
    if ((await row.evaluate((tr) => tr.firstChild.textContent)) === fn) {
      await row.click();
      picked = true;
      break;
    }
  }
  check.that(picked, 'table row of ' + fn);
  const st = await state(page);
  check.equal(st.view + ':' + st.fn, 'sandwich:' + fn, 'a row opens its sandwich');
  const got = await sandwichFacts(page);
  check.equal(got.callers.total, truth.total, 'sandwich callers root total');
  check.equal(got.callees.total, truth.total, 'sandwich callees root total');
  sameMap(got.callers.kids, truth.callers, 'sandwich callers');
  sameMap(got.callees.kids, truth.callees, 'sandwich callees');
  check.that(got.title.startsWith(fn + ': ' + count(truth.total)), 'sandwich title: ' + JSON.stringify(got.title));
  check.that(Math.abs(got.rootWidth - got.width) < 0.5, 'the function spans the sandwich');
  await page.screenshot({ path: shot('sandwich') });
  await page.click('#sandwich-zoom');
  const back = await page.evaluate(() => {
    const { tree, profile, state } = window.stokeReport;
    return state.view + ':' + profile.strings.at(profile.frameName[tree.frame[state.zoom]]);
  });
  check.equal(back, 'flame:' + fn, '"Show in the flame graph" zooms to the function');
  await page.keyboard.press('Escape');
}

async function checkColours(page) {
  const colourOf = () => page.evaluate((f) => {
    const { tree, profile, view } = window.stokeReport;
    for (let i = 1; i < tree.n; i++) {
      if (profile.strings.at(profile.frameName[tree.frame[i]]) === f) return view.coloring.nodeColor(tree, i);
    }
    return null;
  }, fn);
  const byKind = await colourOf();
  await page.keyboard.press('c');
  check.equal((await state(page)).color, 'name', 'c colours by name');
  check.equal(await page.textContent('#legend'), 'by function name', 'legend of colour by name');
  check.that(await colourOf() !== byKind, 'colour by name differs from colour by kind');
  await page.screenshot({ path: shot('colour-by-name') });
  await page.selectOption('#color', 'kind');
  check.equal(await colourOf(), byKind, 'the select gives colour by kind back');
}

async function checkKeys(page) {
  await page.keyboard.press('?');
  check.that(await page.isVisible('#help'), '? opens the help');
  const keys = await page.$$eval('#help kbd', (ks) => ks.map((k) => k.textContent));
  for (const k of ['/', 'Esc', '0', 'i']) check.that(keys.includes(k), 'help lists ' + k);
  await page.screenshot({ path: shot('help') });
  await page.keyboard.press('Escape');
  check.that(!(await page.isVisible('#help')), 'Esc closes the help');
  await page.keyboard.press('/');
  check.equal(await page.evaluate(() => document.activeElement.id), 'search', '/ focuses the search');
  await page.keyboard.press('Escape');
  check.that(await page.evaluate(() => document.activeElement.id !== 'search'), 'Esc leaves the search');
}

// A zoomed, searched icicle; then the sandwich: each reopened from its URL;
// then an address edited by hand.
async function checkReopen(page) {
  const node = await page.evaluate((f) => {
    const { tree, profile } = window.stokeReport;
    for (let i = 1; i < tree.n; i++) if (profile.strings.at(profile.frameName[tree.frame[i]]) === f) return i;
    return 0;
  }, fn);
  await page.evaluate((z) => window.stokeReport.setState({ zoom: z, icicle: true }), node);
  await search(page, fn);
  const views = [await snapshot(page)];
  await page.evaluate((f) => window.stokeReport.setState({ view: 'sandwich', fn: f }), fn);
  views.push(await snapshot(page));
  for (const before of views) {
    const again = await openReport(browser, reportPath, { hash: new URL(before.url).hash });
    const after = await snapshot(again.page);
    check.equal(JSON.stringify(after), JSON.stringify(before), 'the URL reopens the view');
    for (const p of again.problems) check.that(false, 'reopened: ' + p);
    await again.page.context().close();
  }
  // An address edited by hand: what it leaves out goes back to its default.
  await page.evaluate(() => { location.hash = '#search=zz'; });
  await page.waitForFunction(() => window.stokeReport.state.query === 'zz');
  const edited = await state(page);
  check.equal([edited.view, edited.zoom, edited.icicle].join(), 'flame,0,false', 'an edited address resets the rest');
  await search(page, '');
}

async function snapshot(page) {
  return page.evaluate(() => {
    const { state } = window.stokeReport;
    return { url: location.href, zoom: state.zoom, query: state.query, icicle: state.icicle, view: state.view,
             fn: state.fn, match: document.getElementById('match').textContent,
             sandwich: state.view === 'sandwich' ? document.getElementById('sandwich-title').textContent : '' };
  });
}

async function checkLayout(page, size) {
  for (const view of ['flame', 'sandwich', 'table']) {
    await page.evaluate(([v, f]) => window.stokeReport.setState({ view: v, fn: f }), [view, fn]);
    const layout = await layoutOf(page);
    check.that(!layout.sideways, size + ' ' + view + ': no sideways scrolling');
    check.equal(layout.offscreen.join(','), '', size + ' ' + view + ': controls out of view');
    check.that(layout.panel > 0.6 * Number(size.split('x')[1]), size + ' ' + view + ': the view is ' + layout.panel + ' px tall');
    await page.screenshot({ path: shot(view + '-' + size) });
  }
}
