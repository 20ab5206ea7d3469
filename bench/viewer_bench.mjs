// viewer_bench.mjs - the HTML report beside d3-flame-graph (the SVG flame
// graph many tools embed) on the same folded stacks, in the same headless
// Chromium: time to the first painted graph, time to zoom into a frame
// (and, stoke only, to open that frame's function in the sandwich view),
// and file size, for profiles of 10k, 100k and 200k distinct frames
// (tests/viewer/html_synthetic.c writes both the report and the folded text).
// The d3-flame-graph page is self-contained too: d3's modules and the
// library inlined, the stacks as the nested JSON it reads. Both zooms run
// without animation. Each figure is the median of ROUNDS page loads.
//
// usage: node bench/viewer_bench.mjs [--build DIR] [--rounds N] [--frames 10000,100000,200000]
// Needs tests/viewer/node_modules (npm ci --prefix tests/viewer:
// playwright-core, d3-flame-graph) and Debian's chromium. Prints a Markdown table.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser } from '../tests/viewer/browser.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const D3_MODULES = ['internmap', 'd3-array', 'd3-color', 'd3-interpolate', 'd3-format', 'd3-time',
  'd3-time-format', 'd3-scale', 'd3-dispatch', 'd3-timer', 'd3-ease', 'd3-selection', 'd3-transition',
  'd3-hierarchy'];
const GIVE_UP_MS = 120000;
const VIEWPORT = { width: 1280, height: 720 };

const opts = { build: path.join(ROOT, 'build'), rounds: 3, frames: [10000, 100000, 200000] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  if (argv[i] === '--build') opts.build = path.resolve(argv[i + 1]);
  else if (argv[i] === '--rounds') opts.rounds = Number(argv[i + 1]);
  else if (argv[i] === '--frames') opts.frames = argv[i + 1].split(',').map(Number);
  else {
    console.error('usage: node bench/viewer_bench.mjs [--build DIR] [--rounds N] [--frames N,N,...]');
    process.exit(2);
  }
}

const work = mkdtempSync(path.join(os.tmpdir(), 'stoke-viewer-bench-'));
const browser = await launchBrowser();
const rows = [];
try {
  for (const frames of opts.frames) rows.push(await benchOne(frames));
} finally {
  await browser.close();
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true }); else console.error(work);
}
printTable(rows);

async function benchOne(frames) {
  const stokeHtml = path.join(work, frames + '.html');
  const folded = path.join(work, frames + '.folded');
  execFileSync(path.join(opts.build, 'bin', 'html_synthetic'), [String(frames), stokeHtml, folded]);
  const d3Html = path.join(work, frames + '.d3.html');
  writeFileSync(d3Html, d3Page(readFileSync(folded, 'utf8')));
  const row = { frames, folded: statSync(folded).size, stokeSize: statSync(stokeHtml).size, d3Size: statSync(d3Html).size };
  row.stoke = median(await repeat(() => timeStoke(stokeHtml)));
  row.d3 = median(await repeat(() => timeD3(d3Html)));
  console.error(frames + ' frames: stoke ' + JSON.stringify(row.stoke) + ', d3-flame-graph ' + JSON.stringify(row.d3));
  return row;
}

async function repeat(fn) {
  const out = [];
  for (let i = 0; i < opts.rounds; i++) out.push(await fn());
  return out;
}

function median(runs) {
  const pick = (key) => {
    const v = runs.map((r) => r[key]).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)];
  };
  return { paint: pick('paint'), zoom: pick('zoom'), sandwich: pick('sandwich') };
}

async function open(file) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  page.setDefaultTimeout(GIVE_UP_MS);
  await page.goto(pathToFileURL(file).href, { timeout: GIVE_UP_MS });
  return { page, context };
}

// Paint: from navigation start to the frame after the graph is drawn.
async function timeStoke(file) {
  const { page, context } = await open(file);
  await page.waitForFunction(() => window.stokeReport);
  const figures = await page.evaluate(async () => {
    const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));
    await nextFrame();
    const paint = performance.getEntriesByName('stoke:drawn')[0].startTime;
    const { tree, setState } = window.stokeReport;
    const node = widestDescendant(tree, 3);
    const t0 = performance.now();
    setState({ zoom: node });
    await nextFrame();
    const zoom = performance.now() - t0;
    setState({ zoom: 0 });
    await nextFrame();
    // The sandwich of the same frame's function, as a table row opens it.
    const { profile } = window.stokeReport;
    const fn = profile.strings.at(profile.frameName[tree.frame[node]]);
    const t1 = performance.now();
    setState({ view: 'sandwich', fn });
    await nextFrame();
    return { paint, zoom, sandwich: performance.now() - t1 };

    function widestDescendant(t, levels) {
      let node = 0;
      for (let d = 0; d < levels && t.childStart[node + 1] > t.childStart[node]; d++) {
        let best = t.children[t.childStart[node]];
        for (let k = t.childStart[node]; k < t.childStart[node + 1]; k++) {
          if (t.total[t.children[k]] > t.total[best]) best = t.children[k];
        }
        node = best;
      }
      return node;
    }
  });
  await context.close();
  return figures;
}

async function timeD3(file) {
  const { page, context } = await open(file);
  await page.waitForFunction(() => window.benchPaint !== undefined);
  const figures = await page.evaluate(async () => {
    const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));
    // The hierarchy node of the root, as d3-flame-graph binds it to its SVG.
    let node = document.querySelector('#chart svg g').__data__;
    for (let d = 0; d < 3 && node.children && node.children.length; d++) {
      node = node.children.reduce((a, b) => (b.value > a.value ? b : a));
    }
    const t0 = performance.now();
    window.benchChart.zoomTo(node);
    await nextFrame();
    await nextFrame();
    return { paint: window.benchPaint, zoom: performance.now() - t0 };
  });
  await context.close();
  return figures;
}

// A self-contained page that draws the folded stacks with d3-flame-graph,
// as its documentation shows, the stacks as nested { name, value, children }.
function d3Page(foldedText) {
  const modules = path.join(ROOT, 'tests', 'viewer', 'node_modules');
  const scripts = D3_MODULES.map((m) => readFileSync(path.join(modules, m, 'dist', m + '.min.js'), 'utf8'));
  scripts.push(readFileSync(path.join(modules, 'd3-flame-graph', 'dist', 'd3-flamegraph.umd.min.js'), 'utf8'));
  const data = JSON.stringify(foldedToTree(foldedText)).replace(/</g, '\\u003c');
  return '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><div id="chart"></div>\n' +
    scripts.map((s) => '<script>' + s.replace(/<\/script/gi, '<\\/script') + '</script>\n').join('') +
    '<script>const data = ' + data + ';\n' +
    'const chart = flamegraph.default().width(' + VIEWPORT.width + ').transitionDuration(0);\n' +
    'd3.select("#chart").datum(data).call(chart);\n' +
    'window.benchChart = chart;\n' +
    'requestAnimationFrame(() => { window.benchPaint = performance.now(); });\n' +
    '</script></body></html>\n';
}

function foldedToTree(text) {
  const root = { name: 'root', value: 0, children: [] };
  const index = new Map([[root, new Map()]]);
  for (const line of text.split('\n')) {
    const at = line.lastIndexOf(' ');
    if (at <= 0) continue;
    const count = Number(line.slice(at + 1));
    let node = root;
    node.value += count;
    for (const name of line.slice(0, at).split(';')) {
      const kids = index.get(node);
      let child = kids.get(name);
      if (!child) {
        child = { name, value: 0, children: [] };
        kids.set(name, child);
        index.set(child, new Map());
        node.children.push(child);
      }
      child.value += count;
      node = child;
    }
  }
  return root;
}

function printTable(results) {
  const mb = (n) => (n / 1e6).toFixed(1) + ' MB';
  const ms = (n) => Math.round(n) + ' ms';
  console.log('| distinct frames | folded text | stoke report | d3-flame-graph page | stoke: first paint | d3-flame-graph: first paint | stoke: zoom | d3-flame-graph: zoom | stoke: sandwich |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log('| ' + r.frames.toLocaleString('en') + ' | ' + mb(r.folded) + ' | ' + mb(r.stokeSize) + ' | ' +
      mb(r.d3Size) + ' | ' + ms(r.stoke.paint) + ' | ' + ms(r.d3.paint) + ' | ' + ms(r.stoke.zoom) + ' | ' +
      ms(r.d3.zoom) + ' | ' + ms(r.stoke.sandwich) + ' |');
  }
}
