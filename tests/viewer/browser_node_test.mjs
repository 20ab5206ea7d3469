// browser_node_test.mjs - checks the Node.js report html_node writes in
// headless Chromium, with real pointer and keyboard events, against the
// values it was built with (see html_node.c): the legend and the kind
// filters of a JavaScript tab (none on a native tab); one function compiled
// by three V8 tiers drawn as one frame whose total is the sum of its tiers
// and whose tooltip and table row give the tier mix, and apart when split;
// JavaScript frames' tooltips (kind in words, full path, line:column);
// hidden kinds leaving every stack, their self values going to the
// nearest kept caller, in the flame graph, search and table; the native
// frames below the first JavaScript frame collapsed by default and shown
// with one click or j; the state reopening from the link. At 1400x900 and
// 800x600 (everything in view, usable), light and dark. No console error,
// no network request. Leaves screenshots in OUTDIR.
//
// Usage: node browser_node_test.mjs REPORT.html OUTDIR

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  Checks, hoverFrame, launchBrowser, layoutOf, nodeRect, openReport, search, settled, tooltipOf,
} from './browser.mjs';

const RENDER_TREE = 'renderTree lib/tree.js:20:15';
const MIX = 'optimized 81% \u00b7 baseline 12% \u00b7 interpreted 7%';
const PREFIX = '[native: 7 frames]';       // _start ... uv__io_poll, Builtin:JSEntry
const LOAD_PREFIX = '[native: 6 frames]';  // _start ... node::LoadEnvironment, Builtin:JSEntry
const NEW_KINDS = ['app', 'dependencies', 'node core', 'V8 / runtime', 'GC', 'idle'];
const FILTERS = ['app', 'dependencies', 'node core', 'V8 / runtime', 'native', 'GC', 'idle'];
const SPLIT = (tier) => RENDER_TREE + ' [' + tier + ']';
// RGB distances: process and thread, which sit one on the other, and any two
// legend colours (the quiet ones, idle and collapsed, are pale on purpose).
const ROOTS_MIN_DISTANCE = 60;
const LEGEND_MIN_DISTANCE = 20;

const [reportPath, outDir] = process.argv.slice(2);
if (!reportPath || !outDir) {
  console.error('usage: node browser_node_test.mjs REPORT.html OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const check = new Checks('browser_node_test');
const browser = await launchBrowser();
try {
  const { page, problems } = await openReport(browser, reportPath, { viewport: { width: 1400, height: 900 } });
  await checkDefaults(page);
  await checkMergedTiers(page);
  await checkCollapsed(page);
  await checkSplitTiers(page);
  await checkHiddenRuntime(page);
  await checkReopen(page.url(), { hide: 'v8', tiers: 'split', frames: 'js' });
  await checkHiddenNative(page);
  await checkHiddenApp(page);
  await checkAllFrames(page);
  await checkSandwich(page);
  await checkNativeTab(page);
  await checkLayout(page, '1400x900');
  await checkLegendColours(page);
  for (const p of problems) check.that(false, '1400x900: ' + p);
  await checkSmallWindow();
  const dark = await openReport(browser, reportPath, { colorScheme: 'dark', viewport: { width: 1400, height: 900 } });
  await hoverFrame(dark.page, RENDER_TREE);
  await dark.page.screenshot({ path: shot('dark') });
  for (const p of dark.problems) check.that(false, 'dark: ' + p);
} finally {
  await browser.close();
}
process.exit(check.finish());

function shot(name) {
  return path.join(outDir, 'node-' + name + '.png');
}

async function state(page) {
  return page.evaluate(() => ({ ...window.stokeReport.state }));
}

// The drawn tree: per node its name, parent's name, total and self.
async function treeNodes(page) {
  return page.evaluate(() => {
    const { tree, profile } = window.stokeReport;
    const name = (i) => (i === 0 ? '' : profile.strings.at(profile.frameName[tree.frame[i]]));
    const nodes = [];
    for (let i = 1; i < tree.n; i++) {
      nodes.push({ name: name(i), parent: name(tree.parent[i]), total: tree.total[i], self: tree.self[i] });
    }
    return nodes;
  });
}

async function nodesNamed(page, name) {
  return (await treeNodes(page)).filter((n) => n.name === name);
}

// Hovers the frame and checks each "labelvalue" pair is in the tooltip.
async function expectTooltip(page, name, wants) {
  check.that(await hoverFrame(page, name), name + ' is drawn');
  const tip = await tooltipOf(page);
  check.that(!tip.hidden, 'tooltip shows over ' + name);
  check.equal(tip.title, name, 'tooltip title');
  for (const want of wants) {
    check.that(tip.rows.includes(want), 'tooltip of ' + name + ' has ' + JSON.stringify(want) + ': ' +
               JSON.stringify(tip.rows));
  }
}

async function expectDrawn(page, name, drawn) {
  await settled(page);
  check.equal(await nodeRect(page, name) !== null, drawn, name + (drawn ? ' is drawn' : ' is not drawn'));
}

async function filterButtons(page) {
  return page.$$eval('#kind-filters button', (bs) => bs.map((b) => b.textContent + '=' + b.getAttribute('aria-pressed')));
}

async function tableRows(page) {
  return page.$$eval('table.functions tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent).join('|')));
}

// Opens the table with t (out of any field first) and returns its rows; f goes back.
async function withTable(page, fn) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('t');
  await fn(await tableRows(page));
  await page.keyboard.press('f');
}

async function checkDefaults(page) {
  check.that(await page.isVisible('#js-bar'), 'the JavaScript bar shows on a Node.js tab');
  check.equal((await filterButtons(page)).join(', '), FILTERS.map((f) => f + '=true').join(', '),
              'one pressed filter per group of kinds');
  check.that(await page.isVisible('#split-tiers'), 'Split by V8 tier shows where frames have tiers');
  check.equal(await page.getAttribute('#split-tiers', 'aria-pressed'), 'false', 'tiers merged by default');
  check.equal(await page.getAttribute('#all-frames', 'aria-pressed'), 'false', 'JavaScript first by default');
  check.that(!(await page.isVisible('#filter-note')), 'no filter note while nothing is hidden');
  const legend = await page.$$eval('#legend > span', (items) => items.map((i) => i.textContent));
  for (const kind of [...NEW_KINDS, 'program', 'libc', 'native, collapsed']) {
    check.that(legend.includes(kind), 'legend lists ' + kind + ': ' + JSON.stringify(legend));
  }
  check.equal(await page.evaluate(() => location.hash), '', 'the defaults write nothing in the link');
  await page.screenshot({ path: shot('default') });
}

// renderTree ran in three tiers (81 + 12 + 7): one frame of 100.
async function checkMergedTiers(page) {
  const render = await nodesNamed(page, RENDER_TREE);
  check.equal(render.length, 1, 'one renderTree frame while tiers are merged');
  check.equal(render[0] && render[0].total, 100, 'its total is the sum of its tiers');
  await expectTooltip(page, RENDER_TREE, ['Samples100 (self 65)', 'Tiers' + MIX, 'File/srv/app/lib/tree.js',
                                          'Line20:15', "KindJavaScript: the application's own code"]);
  await page.screenshot({ path: shot('tooltip-tiers') });
  await expectTooltip(page, 'Builtin:LoadIC', ['Samples20 (self 20)']); // its two callers' merged
  await expectTooltip(page, 'handle express/lib/router/layer.js:152:42', [
    'KindJavaScript: a package under node_modules', 'File/srv/app/node_modules/express/lib/router/layer.js',
    'Line152:42', 'Tiersbaseline 100%', 'Samples110 (self 10)']);
  await expectTooltip(page, 'emit node:events:517:28', [
    "KindJavaScript: node's own modules (node:)", 'Filenode:events', 'Line517:28', 'Tiersoptimized 100%']);
  await search(page, 'renderTree');
  check.equal(await page.textContent('#match'), 'Matched 23.3% of total (100 of 430 samples, 1 frame)', 'search');
  await search(page, '');
  await withTable(page, (rows) => {
    check.equal(rows[0], 'Function|Module|Self|Self %|Total|Total %|V8 tiers', 'table columns');
    check.that(rows.includes(RENDER_TREE + '|[js]|65|15.1%|100|23.3%|' + MIX), 'table row of renderTree: ' +
               JSON.stringify(rows.filter((r) => r.startsWith('renderTree'))));
    check.that(!rows.some((r) => r.startsWith('[native')), 'collapsed frames are not functions');
  });
}

// The native frames below the first JavaScript frame are one frame per
// prefix; a stack without JavaScript keeps its frames.
async function checkCollapsed(page) {
  await expectTooltip(page, PREFIX, ['Samples135', 'Frames7, from _start to Builtin:JSEntry',
                                     'Kindnative frames collapsed into one']);
  await expectTooltip(page, LOAD_PREFIX, ['Samples40', 'Frames6, from _start to Builtin:JSEntry']);
  const emit = await nodesNamed(page, 'emit node:events:517:28');
  check.equal(emit.map((n) => n.parent).join(), PREFIX, 'emit is called by the collapsed prefix');
  await expectTooltip(page, 'epoll_wait', ['Samples200 (self 200)']);
  await expectTooltip(page, 'main', ['Samples205 (self 5)']); // the stacks without JavaScript
  await expectDrawn(page, 'node::LoadEnvironment', false); // it led only to JavaScript
}

async function checkSplitTiers(page) {
  await page.click('#split-tiers');
  const s = await state(page);
  check.equal(s.tiers, 'split', 'the toggle splits the tiers');
  check.that((await page.evaluate(() => location.hash)).includes('tiers=split'), 'split is in the link');
  check.equal((await nodesNamed(page, RENDER_TREE)).length, 0, 'no merged renderTree frame');
  const totals = [];
  for (const [tier, total, self, engine] of [['optimized', 81, 50, 'TurboFan'], ['baseline', 12, 12, 'Sparkplug'],
    ['interpreted', 7, 3, 'Ignition']]) {
    await expectTooltip(page, SPLIT(tier), ['Samples' + total + ' (self ' + self + ')', 'Tier' + tier + ' (' + engine + ')']);
    totals.push(...(await nodesNamed(page, SPLIT(tier))).map((n) => n.total));
  }
  check.equal(totals.join(' + '), '81 + 12 + 7', 'one frame per tier, adding up to the merged 100');
  await page.screenshot({ path: shot('split') });
  await withTable(page, (rows) => {
    for (const row of [SPLIT('optimized') + '|[js]|50|11.6%|81|18.8%|optimized 100%',
      SPLIT('interpreted') + '|[js]|3|0.70%|7|1.63%|interpreted 100%']) {
      check.that(rows.includes(row), 'split table has ' + row);
    }
  });
}

// V8 / runtime hidden (tiers still split): LoadIC's samples go to the
// renderTree frames that called it; JSEntry leaves the collapsed prefixes.
async function checkHiddenRuntime(page) {
  await page.click('#kind-filters button[data-group="v8"]');
  check.equal(await page.getAttribute('#kind-filters button[data-group="v8"]', 'aria-pressed'), 'false',
              'the V8 / runtime filter is off');
  check.equal(await page.textContent('#filter-note'), 'Filter on: V8 / runtime is hidden', 'the page says a filter is on');
  await expectRuntimeHidden(page);
  await search(page, 'Builtin');
  check.equal(await page.textContent('#match'), 'Matched 0.0% of total (0 of 430 samples, 0 frames)',
              'search finds no hidden frame');
  await search(page, '');
  await withTable(page, (rows) => {
    check.that(!rows.some((r) => r.startsWith('Builtin:')), 'no hidden function in the table');
    check.that(rows.includes(SPLIT('optimized') + '|[js]|66|15.3%|81|18.8%|optimized 100%'),
               'renderTree [optimized] has LoadIC\'s self in the table');
  });
  await page.screenshot({ path: shot('hidden-v8') });
}

async function expectRuntimeHidden(page) {
  const legend = await page.textContent('#legend');
  check.that(!legend.includes('V8 / runtime'), 'the legend lists no hidden kind: ' + legend);
  await expectTooltip(page, SPLIT('optimized'), ['Samples81 (self 66)']);
  await expectTooltip(page, SPLIT('interpreted'), ['Samples7 (self 7)']);
  await expectTooltip(page, '[native: 6 frames]', ['Samples135', 'Frames6, from _start to uv__io_poll']);
  await expectTooltip(page, '[native: 5 frames]', ['Samples40', 'Frames5, from _start to node::LoadEnvironment']);
  await expectTooltip(page, 'main (4242)', ['Samples380']);
}

// The link reopens the same view.
async function checkReopen(url, want) {
  const again = await openReport(browser, reportPath, { hash: new URL(url).hash, viewport: { width: 1400, height: 900 } });
  const s = await state(again.page);
  check.equal([s.hide, s.tiers, s.frames].join(), [want.hide, want.tiers, want.frames].join(), 'the link reopens the state');
  check.equal(await again.page.getAttribute('#split-tiers', 'aria-pressed'), 'true', 'reopened: split pressed');
  check.that(await again.page.isVisible('#filter-note'), 'reopened: the filter note shows');
  await expectRuntimeHidden(again.page);
  for (const p of again.problems) check.that(false, 'reopened: ' + p);
  await again.page.context().close();
}

// Native hidden with the keyboard (Space on its filter): the JavaScript
// hangs from the runtime's JSEntry, native self values go to the callers.
async function checkHiddenNative(page) {
  await page.click('#split-tiers');
  await page.click('#kind-filters button[data-group="v8"]');
  check.equal(await page.evaluate(() => location.hash), '', 'tiers merged and every kind shown again');
  await page.focus('#kind-filters button[data-group="native"]');
  await page.keyboard.press('Space');
  check.equal((await state(page)).hide, 'native', 'Space on a filter hides its kinds');
  await expectTooltip(page, 'main (4242)', ['Samples380 (self 5)']);
  await expectTooltip(page, 'onRequest lib/app.js:30:5', ['Samples25 (self 25)']);
  await expectTooltip(page, 'Builtin:JSEntry', ['Samples175']);
  await expectTooltip(page, RENDER_TREE, ['Samples100 (self 65)', 'Tiers' + MIX]);
  const nodes = await treeNodes(page);
  check.that(!nodes.some((n) => n.name.startsWith('[native')), 'nothing to collapse below a lone JSEntry');
  check.equal(nodes.filter((n) => n.name === 'epoll_wait').map((n) => n.parent).join(), 'main (4242)',
              'epoll_wait hangs from its thread');
  check.equal(nodes.filter((n) => n.name === 'v8::internal::ScavengerCollector::CollectGarbage').map((n) => n.parent).join(),
              'V8 DefaultWorke (4243)', 'the worker\'s GC hangs from its thread');
  await page.screenshot({ path: shot('hidden-native') });
  await page.keyboard.press('Space');
  check.equal((await state(page)).hide, '', 'Space again shows them');
}

// App hidden: renderTree's self goes to handle; the stack whose only
// JavaScript was app code keeps its native frames.
async function checkHiddenApp(page) {
  await page.click('#kind-filters button[data-group="app"]');
  await expectTooltip(page, 'handle express/lib/router/layer.js:152:42', ['Samples110 (self 75)']);
  await expectTooltip(page, 'emit node:events:517:28', ['Samples135 (self 5)']);
  await expectDrawn(page, LOAD_PREFIX, false);
  await expectDrawn(page, 'node::LoadEnvironment', true);
  await expectTooltip(page, 'Builtin:JSEntry', ['Samples40 (self 40)']);
  await page.click('#kind-filters button[data-group="app"]');
}

// j shows every frame; the All frames button collapses them again.
async function checkAllFrames(page) {
  await page.mouse.move(5, 5);
  await page.keyboard.press('j');
  check.equal((await state(page)).frames, 'all', 'j shows all frames');
  check.equal(await page.getAttribute('#all-frames', 'aria-pressed'), 'true', 'All frames pressed');
  check.that((await page.evaluate(() => location.hash)).includes('frames=all'), 'all frames is in the link');
  const nodes = await treeNodes(page);
  check.that(!nodes.some((n) => n.name.startsWith('[native')), 'no collapsed frame');
  check.equal(nodes.filter((n) => n.name === 'emit node:events:517:28').map((n) => n.parent).join(), 'Builtin:JSEntry',
              'emit is called by JSEntry');
  await expectTooltip(page, '_start', ['Samples380']);
  await page.screenshot({ path: shot('all-frames') });
  await page.click('#all-frames');
  check.equal((await state(page)).frames, 'js', 'one click collapses them again');
  await expectDrawn(page, PREFIX, true);
}

async function checkSandwich(page) {
  await hoverFrame(page, RENDER_TREE);
  await page.keyboard.press('s');
  const s = await state(page);
  check.equal(s.view + ':' + s.fn, 'sandwich:' + RENDER_TREE, 's opens the sandwich of the merged function');
  check.that((await page.textContent('#sandwich-title')).startsWith(RENDER_TREE + ': 100 samples (23.3% of total)'),
             'sandwich title: ' + await page.textContent('#sandwich-title'));
  await page.keyboard.press('f');
}

// A tab without JavaScript has no JavaScript bar and is drawn as written.
async function checkNativeTab(page) {
  await page.click('#kind-filters button[data-group="native"]');
  await page.click('#tab-1');
  check.that(!(await page.isVisible('#js-bar')), 'no JavaScript bar on a native tab');
  await expectTooltip(page, 'main', ['Samples40 (self 10)']); // native frames stay, whatever the filters say
  await page.keyboard.press('j');
  check.equal((await state(page)).frames, 'js', 'j does nothing on a native tab');
  await page.click('#tab-0');
  check.that(await page.isVisible('#js-bar'), 'the bar is back on the Node.js tab');
  await page.click('#kind-filters button[data-group="native"]');
}

async function checkLayout(page, size) {
  for (const view of ['flame', 'table']) {
    await page.evaluate((v) => window.stokeReport.setState({ view: v }), view);
    const layout = await layoutOf(page);
    check.that(!layout.sideways, size + ' ' + view + ': no sideways scrolling');
    check.equal(layout.offscreen.join(','), '', size + ' ' + view + ': controls out of view');
    check.that(layout.panel > 0.5 * Number(size.split('x')[1]), size + ' ' + view + ': the view is ' + layout.panel + ' px tall');
    await page.screenshot({ path: shot(view + '-' + size) });
  }
  await page.evaluate(() => window.stokeReport.setState({ view: 'flame' }));
  await checkSearchLayout(page, size);
}

// A search's words (a match, a bad regex) take a line of their own, whole
// and in the window: the toolbars keep their height, nothing scrolls
// sideways.
// The legend's colours tell every kind apart; process and thread, drawn one
// on the other, at a glance.
async function checkLegendColours(page) {
  const swatches = await page.evaluate(() => [...document.querySelectorAll('#legend > span')]
    .map((item) => ({ label: item.textContent,
                      rgb: getComputedStyle(item.querySelector('.swatch')).backgroundColor.match(/\d+/g).map(Number) })));
  for (let i = 0; i < swatches.length; i++) {
    for (let j = i + 1; j < swatches.length; j++) {
      const [a, b] = [swatches[i], swatches[j]];
      const distance = Math.hypot(...a.rgb.map((v, k) => v - b.rgb[k]));
      const roots = a.label === 'process' && b.label === 'thread';
      check.that(distance >= (roots ? ROOTS_MIN_DISTANCE : LEGEND_MIN_DISTANCE), 'legend: ' +
                 a.label + ' and ' + b.label + ' are ' + Math.round(distance) + ' apart in RGB');
    }
  }
}

async function checkSearchLayout(page, size) {
  const bars = () => page.evaluate(() => [...document.querySelectorAll('.bar')]
    .map((b) => Math.round(b.getBoundingClientRect().height)).join(','));
  const before = await bars();
  for (const query of ['render', '/(/']) {
    await page.fill('#search', query);
    await page.waitForFunction((t) => window.stokeReport.state.query === t, query);
    const layout = await layoutOf(page);
    const words = await page.evaluate(() => {
      const el = document.getElementById('match');
      const r = el.getBoundingClientRect();
      return { shown: !el.hidden && r.width > 0, inside: r.left >= 0 && r.right <= window.innerWidth };
    });
    check.equal(await bars(), before, size + ' search ' + query + ': the toolbars keep their height');
    check.that(!layout.sideways, size + ' search ' + query + ': no sideways scrolling');
    check.that(words.shown && words.inside, size + ' search ' + query + ': its words show in the window');
    await page.screenshot({ path: shot('search-' + (query === 'render' ? 'match' : 'bad') + '-' + size) });
  }
  await page.fill('#search', '');
  await page.waitForFunction(() => window.stokeReport.state.query === '');
}

// 800x600: the bars wrap, every control stays in view and works, the
// tooltip stays in the window.
async function checkSmallWindow() {
  const { page, problems } = await openReport(browser, reportPath, { viewport: { width: 800, height: 600 } });
  await checkLayout(page, '800x600');
  await page.click('#split-tiers');
  check.equal((await state(page)).tiers, 'split', '800x600: the split toggle works');
  await page.click('#kind-filters button[data-group="idle"]');
  await expectTooltip(page, 'uv__io_poll', ['Samples200 (self 200)']); // epoll_wait's idle samples
  const tip = await page.evaluate(() => document.getElementById('tooltip').getBoundingClientRect().toJSON());
  check.that(tip.left >= 0 && tip.right <= 800 && tip.top >= 0 && tip.bottom <= 600, '800x600: tooltip in the window');
  await page.screenshot({ path: shot('800x600-split-idle-hidden') });
  for (const p of problems) check.that(false, '800x600: ' + p);
  await page.context().close();
}
