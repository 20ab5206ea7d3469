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
                  '(npm ci --prefix viewer); run scripts/setup.sh');
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
