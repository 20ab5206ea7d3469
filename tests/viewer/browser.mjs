// browser.mjs - opens a stoke HTML report in headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core) and records everything that
// must not happen: a dialog (alert/confirm/prompt), a console error, an
// uncaught exception, or any network request. Shared by the browser tests.
// Fails with a message naming what to install when Chromium or
// playwright-core is missing (scripts/setup.sh installs both).

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const CHROMIUM = process.env.STOKE_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

async function loadPlaywright() {
  const require = createRequire(import.meta.url);
  try {
    return require('playwright-core');
  } catch {
    return null;
  }
}

export async function launchBrowser() {
  const playwright = await loadPlaywright();
  if (!playwright || !existsSync(CHROMIUM)) {
    console.error('needs ' + CHROMIUM + ' (apt: chromium) and playwright-core ' +
                  '(npm ci --prefix tests/viewer); run scripts/setup.sh');
    process.exit(1);
  }
  return playwright.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

// Opens the report (at options.hash, a URL fragment, if given; running
// options.initScript, a function, before the page's own scripts) and returns
// { page, problems, loadMs }. problems fills up as the page runs; check it
// at the end.
export async function openReport(browser, reportPath, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport || { width: 1280, height: 720 },
    colorScheme: options.colorScheme || 'light',
  });
  const page = await context.newPage();
  if (options.initScript) await page.addInitScript(options.initScript);
  const url = pathToFileURL(path.resolve(reportPath)).href;
  const problems = [];
  page.on('dialog', (d) => {
    problems.push('a dialog opened: ' + d.type() + ' "' + d.message() + '"');
    d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push('console ' + m.type() + ': ' + m.text());
  });
  page.on('pageerror', (e) => problems.push('uncaught: ' + e.message));
  page.on('request', (r) => {
    if (r.url().split('#')[0] !== url) problems.push('network request: ' + r.url());
  });
  const started = Date.now();
  await page.goto(url + (options.hash || ''), { waitUntil: 'load' });
  // The data is inflated asynchronously: wait for the report, or its error.
  await page.waitForFunction(() => window.stokeReport || !document.getElementById('message').hidden);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  const loadMs = Date.now() - started;
  return { page, problems, loadMs };
}

// Where the first drawn node named name is, in page coordinates, or null.
export async function nodeRect(page, name) {
  return page.evaluate((n) => {
    const { tree, profile, view } = window.stokeReport;
    for (let i = 1; i < tree.n; i++) {
      if (profile.strings.at(profile.frameName[tree.frame[i]]) === n) {
        const rect = view.clientRectOf(i);
        if (rect) return rect;
      }
    }
    return null;
  }, name);
}

// Resolves after two frames: a change that moved the graph (a bar that
// wrapped differently) has been laid out and drawn again by then.
export async function settled(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

// Drags the real pointer from one point of the page to another, in steps,
// as a user drags across the timeline.
export async function dragBetween(page, a, b) {
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let k = 1; k <= 5; k++) await page.mouse.move(a.x + ((b.x - a.x) * k) / 5, b.y);
  await page.mouse.up();
}

// Moves the pointer onto the first drawn frame named name (a real mouse
// move, once the page has settled); returns whether one is drawn.
export async function hoverFrame(page, name) {
  await settled(page);
  const rect = await nodeRect(page, name);
  await page.mouse.move(0, 0); // off the graph first: the move onto the frame is one even if it stayed
  if (rect) await page.mouse.move(rect.x + rect.width / 2, rect.y + rect.height / 2);
  return rect !== null;
}

// The canvas colours [r, g, b] at points of the page (null stays null),
// read back in one go.
export async function pixelsAt(page, points) {
  return page.evaluate((pts) => {
    const canvas = document.getElementById('flame');
    const r = canvas.getBoundingClientRect();
    const dpr = canvas.width / r.width;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    return pts.map((p) => {
      if (!p) return null;
      const at = 4 * (Math.round((p.y - r.top) * dpr) * canvas.width + Math.round((p.x - r.left) * dpr));
      return [data[at], data[at + 1], data[at + 2]];
    });
  }, points);
}

// The note under the toolbar (which heap a heap tab shows), or null while
// it is hidden.
export async function tabNoteOf(page) {
  return page.$eval('#tab-note', (e) => (e.hidden ? null : e.textContent));
}

// What the tooltip shows: { hidden, title, rows: ["label" + "value", ...] }.
export async function tooltipOf(page) {
  return page.evaluate(() => {
    const el = document.getElementById('tooltip');
    const rows = [...el.querySelectorAll('dt')].map((dt) => dt.textContent + dt.nextElementSibling.textContent);
    return { hidden: el.hidden, title: el.querySelector('.name')?.textContent, rows };
  });
}

// Types into the search box and waits until the page has searched for it.
export async function search(page, text) {
  await page.fill('#search', text);
  await page.waitForFunction((t) => window.stokeReport.state.query === t, text);
}

// How the page fits its window: { sideways (it scrolls sideways), offscreen
// (the controls shown but out of the window), panel (the height of the
// view shown, px) }.
export async function layoutOf(page) {
  return page.evaluate(() => {
    const el = document.documentElement;
    const offscreen = [...document.querySelectorAll('header button, header input, .bar button, .bar select')]
      .filter((e) => e.offsetParent !== null)
      .filter((e) => { const r = e.getBoundingClientRect(); return r.right > innerWidth || r.bottom > innerHeight; })
      .map((e) => e.id || e.textContent);
    const panel = [...document.querySelectorAll('#graph, #sandwich, #table')].find((e) => !e.hidden);
    return { sideways: el.scrollWidth > el.clientWidth, offscreen, panel: panel.getBoundingClientRect().height };
  });
}

// Collects failed expectations and reports them all at the end.
export class Checks {
  constructor(name) {
    this.name = name;
    this.failures = [];
  }

  that(ok, what) {
    if (!ok) this.failures.push(what);
  }

  equal(got, want, what) {
    if (got !== want) this.failures.push(what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
  }

  finish() {
    for (const f of this.failures) console.error(this.name + ': ' + f);
    if (this.failures.length === 0) console.log(this.name + ': ok');
    return this.failures.length === 0 ? 0 : 1;
  }
}
