// open_in_speedscope.mjs - opens files in speedscope's own viewer (the web
// app the speedscope npm package ships), in headless Chromium, the way a
// user picks a file in it; prints one JSON line per file: {file, title,
// problems}. speedscope reads its own format and Chrome's .cpuprofile; once
// it has a profile its title is "NAME - speedscope"; a file it cannot import
// raises an alert, which counts as a problem.
//
//   node open_in_speedscope.mjs FILE...
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchBrowser } from '../viewer/browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const app = path.join(here, 'node_modules', 'speedscope', 'dist', 'release', 'index.html');

async function open(browser, file) {
  const page = await browser.newPage();
  const problems = [];
  let refused;
  const alerted = new Promise((resolve) => { refused = resolve; });
  page.on('dialog', (d) => {
    problems.push(`alert: ${d.message()}`);
    d.dismiss();
    refused();
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  await page.goto(pathToFileURL(app).href, { waitUntil: 'load' });
  await page.setInputFiles('input[type=file]', file);
  const name = path.basename(file);
  const shown = page.waitForFunction(() => document.title.endsWith(' - speedscope'), null,
                                     { timeout: 10000 }).then(() => true, () => false);
  if (!(await Promise.race([shown, alerted.then(() => false)])))
    problems.push('speedscope shows no profile');
  const title = await page.title();
  await page.close();
  return { file: name, title, problems };
}

const browser = await launchBrowser();
for (const file of process.argv.slice(2))
  console.log(JSON.stringify(await open(browser, file)));
await browser.close();
