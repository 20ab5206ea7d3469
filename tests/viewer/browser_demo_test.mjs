// browser_demo_test.mjs - checks the report html_demo writes in headless
// Chromium: hostile names show as text and run nothing, no console error and
// no network request, search shares (recursion counted once), Esc in the
// search box ends the search (typed with the keyboard, at 1400x900 and
// 800x600), tooltip, y copies a frame's name,
// numbers, click to zoom, reset, merging of sub-pixel frames, light and dark
// (dark without Uint8Array.fromBase64).
// Leaves screenshots in OUTDIR.
//
// Usage: node browser_demo_test.mjs REPORT.html OUTDIR

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Checks, launchBrowser, nodeRect, openReport } from './browser.mjs';

const HOSTILE_TITLE = 'demo <b>title</b> & "quotes" </title>';
const IMG = '<img src=x onerror=alert(1)>';
const HOSTILE_NAMES = [
  IMG,
  '</script><script>alert(2)</script>',
  'a;b "double" \'single\' `back` ${alert(3)}',
  'na\u00efve_funci\u00f3n_\u65e5\u672c_\u{1f525}',
  'tab\there & <!-- comment --> \\back\\slash',
];
const TOTAL = 4640;

const [reportPath, outDir] = process.argv.slice(2);
if (!reportPath || !outDir) {
  console.error('usage: node browser_demo_test.mjs REPORT.html OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const check = new Checks('browser_demo_test');
const browser = await launchBrowser();
try {
  await checkLight(await openReport(browser, reportPath));
  // Dark, and in a browser without Uint8Array.fromBase64 (the page decodes
  // its data block by itself then).
  const withoutFromBase64 = () => { delete Uint8Array.fromBase64; };
  await checkDark(await openReport(browser, reportPath, { colorScheme: 'dark', initScript: withoutFromBase64 }));
} finally {
  await browser.close();
}
process.exit(check.finish());

async function checkLight({ page, problems }) {
  await checkText(page);
  await checkSearch(page, 'src=x onerror', '9.70%', '450 of 4,640 samples, 1 frame)');
  await checkSearch(page, 'fib', '7.54%', '350 of 4,640 samples, 3 frames)');
  await checkSearch(page, '/^tiny_00[0-4]\\d$/', '1.08%', '50 of 4,640 samples, 50 frames)');
  await checkBadRegex(page);
  for (const size of [{ width: 1400, height: 900 }, { width: 800, height: 600 }]) {
    await page.setViewportSize(size);
    await checkSearchEscape(page, size.width + 'x' + size.height);
  }
  await search(page, 'fib');
  await page.screenshot({ path: path.join(outDir, 'demo-search.png') });
  await search(page, '');
  await checkTooltip(page);
  await checkCopyName(page);
  await checkMerged(page);
  await checkZoom(page);
  for (const p of problems) check.that(false, 'light: ' + p);
}

async function checkDark({ page, problems }) {
  check.equal(await page.evaluate(() => typeof Uint8Array.fromBase64), 'undefined', 'dark: no fromBase64');
  check.equal(await page.evaluate(() => window.stokeReport.tree.total[0]), TOTAL, 'dark: data decoded by table');
  await hoverNode(page, IMG);
  await page.screenshot({ path: path.join(outDir, 'demo-dark.png') });
  for (const p of problems) check.that(false, 'dark: ' + p);
}

async function checkText(page) {
  check.equal(await page.title(), HOSTILE_TITLE, 'document title');
  check.equal(await page.textContent('#title'), HOSTILE_TITLE, 'page heading');
  check.equal(await page.evaluate(() => document.images.length), 0, 'img elements');
  check.equal(await page.evaluate(() => document.scripts.length), 2, 'script elements');
  const labels = await page.evaluate(() => {
    const { tree, profile } = window.stokeReport;
    const out = [];
    for (let i = 1; i < tree.n; i++) out.push(profile.strings.at(profile.frameName[tree.frame[i]]));
    return out;
  });
  for (const name of HOSTILE_NAMES) check.that(labels.includes(name), 'frame named ' + JSON.stringify(name));
}

// Types into the search box and waits until the page has searched for it.
async function search(page, text) {
  await page.fill('#search', text);
  await page.waitForFunction((t) => window.stokeReport.state.query === t, text);
}

async function checkSearch(page, query, share, counts) {
  await search(page, query);
  const text = await page.textContent('#match');
  check.that(text.includes('Matched ' + share + ' of total'), 'search ' + query + ': share in ' + JSON.stringify(text));
  check.that(text.includes(counts), 'search ' + query + ': counts in ' + JSON.stringify(text));
}

// Typed as a user types, then Esc: the box is empty and nothing is
// searched any more (no banner, no marked frames).
async function checkSearchEscape(page, size) {
  await search(page, 'x');
  await search(page, '');
  await page.click('#search');
  await page.keyboard.type('fib');
  await page.waitForFunction(() => window.stokeReport.state.query === 'fib');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => window.stokeReport.state.query === '', null, { timeout: 3000 })
    .catch(() => {}); // checked below
  const after = await page.evaluate(() => ({
    value: document.getElementById('search').value,
    query: window.stokeReport.state.query,
    banner: !document.getElementById('match').hidden,
  }));
  check.equal(after.value, '', size + ': Esc empties the search box');
  check.equal(after.query, '', size + ': Esc ends the search');
  check.that(!after.banner, size + ': no "Matched" banner after Esc');
}

async function checkBadRegex(page) {
  await search(page, '/(/');
  check.that(await page.$eval('#search', (e) => e.classList.contains('invalid')), 'bad regex marks the box');
  check.that((await page.textContent('#match')).startsWith('Bad regex'), 'bad regex message');
}

// Moves the pointer to the middle of the first node named name; returns it.
async function hoverNode(page, name) {
  const rect = await nodeRect(page, name);
  check.that(rect !== null, 'frame ' + JSON.stringify(name) + ' is drawn');
  if (rect) await page.mouse.move(rect.x + rect.width / 2, rect.y + rect.height / 2);
  return rect;
}

async function checkTooltip(page) {
  await hoverNode(page, IMG);
  const tip = await page.evaluate(() => {
    const el = document.getElementById('tooltip');
    return { hidden: el.hidden, text: el.innerText, elements: el.querySelectorAll('*').length,
             title: el.querySelector('.name').textContent };
  });
  await page.screenshot({ path: path.join(outDir, 'demo-tooltip.png') });
  check.that(!tip.hidden, 'tooltip shows on hover');
  check.equal(tip.title, IMG, 'tooltip name');
  check.equal(tip.elements, 1 + 1 + 2 * 6, 'tooltip elements (name, list, 6 rows)');
  for (const want of ['libevil.so (library)', '<b>x.c</b>:7', '450 (self 300)', '451 ms',
                      '9.70%', '39.5%']) {
    check.that(tip.text.includes(want), 'tooltip shows ' + JSON.stringify(want) + ' in ' + JSON.stringify(tip.text));
  }
}

// y over a frame puts its name, as text, on the clipboard.
async function checkCopyName(page) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
  await page.evaluate(() => document.activeElement.blur()); // out of the search box
  await hoverNode(page, IMG);
  await page.keyboard.press('y');
  await page.waitForFunction((want) => navigator.clipboard.readText().then((t) => t === want), IMG, { timeout: 3000 })
    .catch(() => {}); // checked below
  check.equal(await page.evaluate(() => navigator.clipboard.readText()), IMG, 'y copies the name under the pointer');
}

// The 3,000 one-sample callees of do_work are far narrower than a pixel:
// they must be drawn as one merged block that keeps their whole value.
async function checkMerged(page) {
  const merged = await page.evaluate(() => {
    const { view } = window.stokeReport;
    return view.rows.flat().filter((h) => h.count > 1).map((h) => ({ count: h.count, total: h.total }));
  });
  check.that(merged.some((m) => m.count === 3000 && m.total === 3000),
             'tiny frames merged into one block of 3000: ' + JSON.stringify(merged));
}

async function checkZoom(page) {
  const before = await hoverNode(page, 'main');
  await page.mouse.click(before.x + before.width / 2, before.y + before.height / 2);
  await page.waitForTimeout(50);
  const after = await page.evaluate(() => {
    const { tree, profile, view, state } = window.stokeReport;
    const crumbs = [...document.querySelectorAll('#crumbs button')].map((b) => b.textContent);
    return { zoomName: profile.strings.at(profile.frameName[tree.frame[state.zoom]]),
             rect: view.clientRectOf(state.zoom), width: view.width, crumbs };
  });
  check.equal(after.zoomName, 'main', 'zoomed node');
  check.that(after.rect && Math.abs(after.rect.width - after.width) < 0.5, 'zoomed node spans the full width');
  check.equal(after.crumbs.join(' > '), 'all processes > demo <b>(4242)</b> > main (4242) > main', 'breadcrumbs');
  await hoverNode(page, IMG);
  await page.screenshot({ path: path.join(outDir, 'demo-zoom.png') });
  await page.keyboard.press('Escape');
  check.equal(await page.evaluate(() => window.stokeReport.state.zoom), 0, 'Escape resets the zoom');
  await page.screenshot({ path: path.join(outDir, 'demo.png') });
}
