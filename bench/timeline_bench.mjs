// timeline_bench.mjs - the report's timeline on long recordings: a server
// under load for an hour at 997 Hz (tests/viewer/html_timeline server: its
// main thread and WORKERS busy worker threads, a busy sample ending in one
// of STACKS handler functions), opened in headless Chromium at 1400x900.
// Times, each the median of ROUNDS page loads (and their range):
//  - open: from navigation start to the page's stoke:drawn mark, after the
//    data is inflated and decoded and the timeline and the flame graph are
//    drawn (figure 8's first paint);
//  - pick: from the pointer's release at the end of a drag across the
//    strip (the real pointer, as a user drags) to the next frame, every
//    view rebuilt from the range's buckets and drawn, for ranges of 1%, 10%
//    and 90% of the recording;
//  - clear: the same for a click on the strip, which shows the whole
//    recording again.
// With --heap N, the recording also holds the live heap over time of N
// allocation stacks (html_timeline server ... HEAP_STACKS), and the picks
// are timed on its tab "heap: grew in range": what grew between the
// range's ends, added up from the changes of its buckets.
//
// usage: node bench/timeline_bench.mjs [--build DIR] [--rounds N] [--seconds S]
//                                      [--stacks N,N,...] [--workers N] [--heap N]
// Needs tests/viewer/node_modules (npm ci --prefix tests/viewer:
// playwright-core) and Debian's chromium. Prints a Markdown table.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser } from '../tests/viewer/browser.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VIEWPORT = { width: 1400, height: 900 };
const GIVE_UP_MS = 120000;
const PICKS = [['1%', 0.5, 0.51], ['10%', 0.3, 0.4], ['90%', 0.05, 0.95]]; // shares of the recording

const opts = { build: path.join(ROOT, 'build'), rounds: 3, seconds: 3600, stacks: [100, 2000], workers: 2, heap: 0 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const value = argv[i + 1];
  if (argv[i] === '--build') opts.build = path.resolve(value);
  else if (argv[i] === '--rounds') opts.rounds = Number(value);
  else if (argv[i] === '--seconds') opts.seconds = Number(value);
  else if (argv[i] === '--stacks') opts.stacks = value.split(',').map(Number);
  else if (argv[i] === '--workers') opts.workers = Number(value);
  else if (argv[i] === '--heap') opts.heap = Number(value);
  else {
    console.error('usage: node bench/timeline_bench.mjs [--build DIR] [--rounds N] [--seconds S] ' +
                  '[--stacks N,N,...] [--workers N] [--heap N]');
    process.exit(2);
  }
}

const work = mkdtempSync(path.join(os.tmpdir(), 'stoke-timeline-bench-'));
const browser = await launchBrowser();
const rows = [];
console.error('load average at the start: ' + os.loadavg().map((l) => l.toFixed(1)).join(' '));
try {
  for (const stacks of opts.stacks) rows.push(await benchOne(stacks));
} finally {
  await browser.close();
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true }); else console.error(work);
}
console.error('load average at the end: ' + os.loadavg().map((l) => l.toFixed(1)).join(' '));
printTable(rows);

async function benchOne(stacks) {
  const file = path.join(work, stacks + '.html');
  execFileSync(path.join(opts.build, 'bin', 'html_timeline'),
               ['server', String(opts.seconds), String(stacks), String(opts.workers), file,
                ...(opts.heap ? [String(opts.heap)] : [])]);
  const runs = [];
  for (let i = 0; i < opts.rounds; i++) runs.push(await timeOne(file));
  const row = { stacks, size: statSync(file).size, ...runs[0].data, figures: medians(runs.map((r) => r.figures)) };
  console.error(stacks + ' stacks: ' + JSON.stringify(runs.map((r) => r.figures)));
  return row;
}

// Each figure's { median, min, max } over the runs.
function medians(runs) {
  const out = {};
  for (const key of Object.keys(runs[0])) {
    const v = runs.map((r) => r[key]).sort((a, b) => a - b);
    out[key] = { median: v[Math.floor(v.length / 2)], min: v[0], max: v[v.length - 1] };
  }
  return out;
}

async function timeOne(file) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  page.setDefaultTimeout(GIVE_UP_MS);
  await page.goto(pathToFileURL(file).href, { timeout: GIVE_UP_MS });
  await page.waitForFunction(() => window.stokeReport);
  const tab = opts.heap ? 1 : 0;
  if (tab) await page.click('#tab-' + tab);
  const data = await page.evaluate((t) => {
    const { tabs } = window.stokeReport;
    const { profile } = tabs[t];
    const samples = tabs[0].profile.nodeSelf[0].reduce((a, v) => a + v, 0);
    return { samples, entries: profile.timeline.node.length,
             buckets: profile.timeline.buckets, nodes: profile.nodeDepth.length };
  }, tab);
  const figures = { open: await page.evaluate(() => performance.getEntriesByName('stoke:drawn')[0].startTime) };
  await page.evaluate(() => {
    window.benchFrames = [];
    window.addEventListener('pointerup', () => {
      const t0 = performance.now();
      requestAnimationFrame(() => window.benchFrames.push(performance.now() - t0));
    }, { capture: true });
  });
  for (const [label, a, b] of PICKS) figures['pick ' + label] = await untilFrame(page, () => dragAcross(page, a, b));
  const at = await stripPoint(page, 0.5);
  figures.clear = await untilFrame(page, () => page.mouse.click(at.x, at.y));
  await context.close();
  return { data, figures };
}

// Where a share of the recording is on the strip, in page coordinates.
async function stripPoint(page, share) {
  return page.evaluate((s) => {
    const { strip } = window.stokeReport;
    const g = strip.geometry();
    const r = document.getElementById('strip').getBoundingClientRect();
    return { x: r.left + g.x(s * g.seconds), y: r.top + g.top + 4 };
  }, share);
}

async function dragAcross(page, a, b) {
  const from = await stripPoint(page, a);
  const to = await stripPoint(page, b);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, to.y);
  await page.mouse.move(to.x, to.y);
  await page.mouse.up();
}

// Runs a pointer action; returns the time from its pointer release to the
// frame after it.
async function untilFrame(page, action) {
  const before = await page.evaluate(() => window.benchFrames.length);
  await action();
  await page.waitForFunction((n) => window.benchFrames.length > n, before);
  return page.evaluate(() => window.benchFrames[window.benchFrames.length - 1]);
}

function printTable(results) {
  const ms = ({ median, min, max }) => Math.round(median) + ' ms' +
    (opts.rounds > 1 ? ' (' + Math.round(min) + '-' + Math.round(max) + ')' : '');
  const count = (n) => Math.round(n).toLocaleString('en');
  if (opts.heap) console.log('Picks on the tab "heap: grew in range", ' + opts.heap + ' allocation stacks; ' +
                             'timeline entries are its own.\n');
  console.log('| handler functions | samples | timeline buckets | timeline entries | report | open (timeline drawn) | ' +
              PICKS.map(([label]) => 'pick ' + label).join(' | ') + ' | clear |');
  console.log('|---:|---:|---:|---:|---:|---:|' + PICKS.map(() => '---:|').join('') + '---:|');
  for (const r of results) {
    const f = r.figures;
    console.log('| ' + count(r.stacks) + ' | ' + count(r.samples) + ' | ' + count(r.buckets) + ' | ' + count(r.entries) +
                ' | ' + (r.size / 1e6).toFixed(1) + ' MB | ' + ms(f.open) + ' | ' +
                PICKS.map(([label]) => ms(f['pick ' + label])).join(' | ') + ' | ' + ms(f.clear) + ' |');
  }
}
