// Screenshots of each view of the demo, for before/after notes (docs/screenshots).
// Serve a production build (npx vite preview ...), then: npx tsx scripts/screenshots.ts URL OUTDIR
import { chromium } from 'playwright';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/chromium';
import fs from 'node:fs';
const [url, out] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const shot = async (name: string, full = true) => {
  await page.screenshot({ path: `${out}/${name}.jpg`, type: 'jpeg', quality: 70, fullPage: full });
};
await page.goto(url);
await page.waitForTimeout(1500);
await shot('01-first-visit-1.5s', false);
await page.waitForFunction(
  () => document.querySelector('.app')?.getAttribute('data-state') === 'fitted',
  null,
  { timeout: 300000 },
);
await page.waitForTimeout(500);
await shot('02-first-visit-fitted', false);
const tabs = [
  'Items',
  'Information',
  'Distractors',
  'LLMs',
  'Psychometrics',
  'Evaluate',
  'Bank & CAT',
];
let n = 3;
for (const t of tabs) {
  const tab = page.getByRole('tab', { name: t, exact: true });
  if (!(await tab.count())) {
    console.log('no tab', t);
    continue;
  }
  await tab.click();
  await page.waitForTimeout(800);
  await shot(`${String(n++).padStart(2, '0')}-${t.replace(/\W+/g, '-').toLowerCase()}`);
}
await browser.close();
