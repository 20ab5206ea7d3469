// browser_perf.mjs - times a stoke HTML report in headless Chromium: load to
// first paint, a zoom, a reset and a search, the first opening of every
// other tab, and for a Node.js profile the JavaScript options (tiers
// split, kinds hidden, all frames: the transform of the call tree, then
// the whole state change with its redraw), and checks the page stays free
// of errors and network requests.
// With --folded, compares the report's size with that of the same stacks
// as folded text (the report may be at most twice as large). Prints one
// line of figures (ms) and exits 1 if a limit given on the command line is
// exceeded.
//
// Usage: node browser_perf.mjs REPORT.html [MAX_LOAD_MS [MAX_ZOOM_MS]] [--screenshot PNG]
//                              [--folded STACKS.folded] [--max-js-ms MS]

import { statSync } from 'node:fs';
import { Checks, launchBrowser, openReport } from './browser.mjs';

const MAX_SIZE_RATIO = 2;
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : null;
};
const screenshot = option('--screenshot');
const folded = option('--folded');
const maxJs = option('--max-js-ms');
// State changes of a Node.js profile, each timed from the last.
const JS_STEPS = [
  ['tiers split', { tiers: 'split' }], ['tiers merged again', { tiers: 'merged' }],
  ['native hidden', { hide: 'native' }], ['app hidden', { hide: 'app' }],
  ['all frames', { hide: '', frames: 'all' }], ['JavaScript first again', { frames: 'js' }],
];
const [reportPath, maxLoad, maxZoom] = args;
if (!reportPath) {
  console.error('usage: node browser_perf.mjs REPORT.html [MAX_LOAD_MS [MAX_ZOOM_MS]] [--screenshot PNG]');
  process.exit(2);
}
const check = new Checks('browser_perf');
const browser = await launchBrowser();
try {
  const { page, problems, loadMs } = await openReport(browser, reportPath);
  const figures = await page.evaluate(() => {
    const { tree, view, setState } = window.stokeReport;
    const time = (fn) => {
      const t0 = performance.now();
      fn();
      return performance.now() - t0;
    };
    // The widest node three levels below the first process.
    let node = tree.children[tree.childStart[0]];
    for (let d = 0; d < 3 && tree.childStart[node + 1] > tree.childStart[node]; d++) {
      let best = tree.children[tree.childStart[node]];
      for (let k = tree.childStart[node]; k < tree.childStart[node + 1]; k++) {
        if (tree.total[tree.children[k]] > tree.total[best]) best = tree.children[k];
      }
      node = best;
    }
    const nav = performance.getEntriesByType('navigation')[0];
    const mark = (name) => Math.round(performance.getEntriesByName(name)[0].startTime);
    return {
      marks: 'response end ' + Math.round(nav.responseEnd) + ', data read ' + mark('stoke:data-read') +
             ', tree built ' + mark('stoke:tree-built') + ', drawn ' + mark('stoke:drawn'),
      nodes: tree.n,
      scriptDone: Math.round(nav.domContentLoadedEventEnd),
      zoom: time(() => setState({ zoom: node })),
      reset: time(() => setState({ zoom: 0 })),
      search: time(() => setState({ query: 'handle_request_1' })),
      drawn: view.rows.reduce((sum, row) => sum + (row ? row.length : 0), 0),
      tabs: window.stokeReport.report.tabs.map((t, i) => i === 0 ? 0 : time(() => setState({ tab: i }))),
    };
  });
  const js = await page.evaluate((steps) => {
    const { jsBar, setState } = window.stokeReport;
    if (!jsBar.shown) return null;
    const transforms = () => performance.getEntriesByName('stoke:transform');
    const first = transforms()[0].duration;
    return { first, steps: steps.map(([label, change]) => {
      const before = transforms().length;
      const t0 = performance.now();
      setState(change);
      const ms = performance.now() - t0;
      const after = transforms();
      return { label, ms, transform: after.length > before ? after[after.length - 1].duration : 0 };
    }) };
  }, JS_STEPS);
  const r = (x) => Math.round(x);
  console.log('nodes ' + figures.nodes + ', load+first paint ' + loadMs + ' ms (scripts done at ' +
              figures.scriptDone + ' ms), zoom ' + r(figures.zoom) + ' ms, reset ' + r(figures.reset) +
              ' ms, search ' + r(figures.search) + ' ms, frames drawn ' + figures.drawn +
              ' (page clock: ' + figures.marks + ')' +
              (figures.tabs.length > 1 ? ', first opening of tabs 2..: ' + figures.tabs.slice(1).map(r).join(', ') + ' ms' : ''));
  if (js) {
    console.log('JavaScript: transform at load ' + r(js.first) + ' ms; ' + js.steps.map((s) =>
      s.label + ' ' + r(s.ms) + ' ms (transform ' + r(s.transform) + ')').join(', '));
    for (const s of js.steps) {
      if (maxJs) check.that(s.ms <= Number(maxJs), s.label + ' took ' + r(s.ms) + ' ms > ' + maxJs);
    }
  }
  if (screenshot) await page.screenshot({ path: screenshot });
  if (folded) {
    const [html, text] = [statSync(reportPath).size, statSync(folded).size];
    console.log('report ' + html + ' bytes, folded ' + text + ' bytes: ' + (html / text).toFixed(3) + ' times');
    check.that(html <= MAX_SIZE_RATIO * text, 'the report is more than ' + MAX_SIZE_RATIO + ' times its folded text');
  }
  if (maxLoad) check.that(loadMs <= Number(maxLoad), 'load took ' + loadMs + ' ms > ' + maxLoad);
  if (maxZoom) check.that(figures.zoom <= Number(maxZoom), 'zoom took ' + r(figures.zoom) + ' ms > ' + maxZoom);
  for (const p of problems) check.that(false, p);
} finally {
  await browser.close();
}
process.exit(check.finish());
