// browser_hot_lines_test.mjs - a function's hottest lines in a stoke
// report, in headless Chromium at 1400x900 and 800x600, opened the ways a
// user opens them: the pointer over its frame in the flame graph and the
// s key, a click on its row of the function table. Under its sandwich the
// two lines FIRST and SECOND hold two thirds and one third of its samples
// (within 5 points), every line of source shown is the file's own text
// (SOURCE holds hostile text near them: it must show as text and run
// nothing), the panel is in the window and nothing scrolls sideways. No
// console error, no dialog, no network request. Leaves a screenshot of
// each in OUTDIR.
//
// Usage: node browser_hot_lines_test.mjs REPORT.html SOURCE FUNCTION FIRST SECOND OUTDIR

import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Checks, hoverFrame, launchBrowser, layoutOf, openReport, settled } from './browser.mjs';

const [reportPath, sourcePath, fn, firstArg, secondArg, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node browser_hot_lines_test.mjs REPORT.html SOURCE FUNCTION FIRST SECOND OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const first = Number(firstArg);
const second = Number(secondArg);
const TOLERANCE_POINTS = 5;
const check = new Checks('browser_hot_lines_test');
// What the page must show: the file decoded as the report does (an invalid
// byte is U+FFFD).
const sourceLines = new TextDecoder('utf-8').decode(readFileSync(sourcePath)).split('\n');

const browser = await launchBrowser();
try {
  for (const viewport of [{ width: 1400, height: 900 }, { width: 800, height: 600 }]) {
    const size = viewport.width + 'x' + viewport.height;
    const { page, problems } = await openReport(browser, reportPath, { viewport });
    const title = await page.title();
    check.that(await hoverFrame(page, fn), size + ': ' + fn + ' is drawn in the flame graph');
    await page.keyboard.press('s');
    await checkPanel(page, size + ', from the flame graph');
    await page.screenshot({ path: path.join(outDir, 'hot-lines-' + size + '.png') });
    await page.click('button:has-text("Table")');
    await page.click('#table tr:has(td:text-is("' + fn + '"))');
    await checkPanel(page, size + ', from the table');
    check.equal(await page.title(), title, size + ': the page title (hostile source ran)');
    check.equal(await page.locator('#hot-lines img, #hot-lines script').count(), 0,
                size + ': elements made from the source');
    for (const p of problems) check.that(false, size + ': ' + p);
  }
} finally {
  await browser.close();
}
process.exit(check.finish());

// The panel under the sandwich of fn: shares, source text, in the window.
async function checkPanel(page, where) {
  await settled(page);
  const panel = await page.evaluate(() => {
    const el = document.getElementById('hot-lines');
    const rows = [...el.querySelectorAll('tbody tr:not(.gap)')].map((tr) => ({
      hot: tr.classList.contains('hot'),
      cells: [...tr.children].map((td) => td.textContent),
    }));
    const r = el.getBoundingClientRect();
    return { hidden: el.hidden, heading: el.querySelector('h2')?.textContent, rows,
             top: r.top, bottom: r.bottom, height: innerHeight };
  });
  check.that(!panel.hidden, where + ': the hottest lines are shown');
  check.that((panel.heading || '').includes(fn), where + ': heading ' + JSON.stringify(panel.heading));
  const share = (line) => {
    const row = panel.rows.find((r) => r.hot && Number(r.cells[2]) === line);
    return row ? parseFloat(row.cells[0]) : NaN;
  };
  for (const [line, want] of [[first, 200 / 3], [second, 100 / 3]]) {
    const got = share(line);
    check.that(Math.abs(got - want) <= TOLERANCE_POINTS,
               where + ': line ' + line + ' holds ' + got + '% of ' + fn + ', want ' + want.toFixed(1) + '%');
  }
  const shown = panel.rows.filter((r) => r.cells[3] !== '');
  check.that(shown.length >= 7, where + ': ' + shown.length + ' lines of source shown');
  for (const r of shown) {
    const line = Number(r.cells[2]);
    check.equal(r.cells[3], sourceLines[line - 1], where + ': the text of line ' + line);
  }
  check.that(panel.top < panel.height && panel.bottom <= panel.height + 1,
             where + ': the panel is in the window (' + panel.top + '..' + panel.bottom + ' of ' + panel.height + ')');
  check.that(!(await layoutOf(page)).sideways, where + ': the page scrolls sideways');
}
