import { expect, test, type Locator, type Page } from '@playwright/test';
import { openTab, waitState } from './helpers';

// Issue 31: what the screen says must be readable. At 1440 × 900, on every view of
// the fitted demo (and the held-out prediction and Arena charts of Evaluate), no
// two texts of a chart may overlap, and no control may sit under the sticky Fit bar.
test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 300_000 });

const RUN_TIMEOUT = 150_000;

/** The demo, fitted (the default fit's λ search takes minutes on a loaded machine). */
async function openFitted(page: Page): Promise<void> {
  page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
  await page.goto('/');
  await waitState(page, 'fitted', 240_000);
}
/** Overlaps up to this many pixels (anti-aliasing, glyph boxes' side bearings) pass. */
const TOLERANCE = 1;

interface Clash {
  chart: string;
  a: string;
  b: string;
}

/**
 * Every pair of non-empty, rendered `text` elements of each chart's svg whose
 * boxes overlap by more than TOLERANCE in both directions.
 */
async function clashes(scope: Locator): Promise<Clash[]> {
  const figures = scope.locator('figure[data-chart]');
  // Charts draw in a task of their own, the rest a piece per frame: wait for all.
  await expect(figures.locator('svg[data-pending]')).toHaveCount(0);
  for (const f of await figures.all()) await expect(f.locator('svg').first()).toBeAttached();
  return figures.evaluateAll((els, tol) => {
    const out: { chart: string; a: string; b: string }[] = [];
    for (const fig of els) {
      const svg = fig.querySelector('svg');
      if (!svg) continue;
      const boxes = [...svg.querySelectorAll('text')]
        .filter((t) => (t.textContent ?? '').trim() !== '')
        .filter((t) => getComputedStyle(t).visibility !== 'hidden')
        .map((t) => ({ text: (t.textContent ?? '').trim(), r: t.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0);
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const p = boxes[i].r;
          const q = boxes[j].r;
          const dx = Math.min(p.right, q.right) - Math.max(p.left, q.left);
          const dy = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
          if (dx > tol && dy > tol)
            out.push({
              chart: fig.getAttribute('data-chart') ?? '?',
              a: boxes[i].text,
              b: boxes[j].text,
            });
        }
    }
    return out;
  }, TOLERANCE);
}

async function runSection(s: Locator): Promise<void> {
  await s.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(s).toHaveAttribute('data-state', 'done', { timeout: RUN_TIMEOUT });
}

test('no chart text overlaps another on any view at 1440 × 900', async ({ page }) => {
  await openFitted(page);
  const found: Clash[] = [];
  // The sidebar (the fit's objective curve) and each view of the results.
  found.push(...(await clashes(page.locator('body'))));
  for (const tab of ['Items', 'Information', 'Distractors', 'LLMs', 'Psychometrics']) {
    await openTab(page, tab);
    await expect(page.locator('[role="tabpanel"] figure[data-chart]').first()).toBeVisible();
    found.push(...(await clashes(page.locator('[role="tabpanel"]'))));
  }

  // Evaluate: the held-out prediction chart (two models, two folds) and the Arena scatter.
  await openTab(page, 'Evaluate');
  await expect(page.getByTestId('evaluate')).toHaveAttribute('data-state', 'idle');
  const cv = page.getByTestId('eval-cv');
  await cv.getByRole('button', { name: 'None', exact: true }).click();
  for (const m of ['llmnrm', '2pl'])
    await cv.getByRole('checkbox', { name: m, exact: true }).check();
  await cv.getByLabel('Folds').fill('2');
  await runSection(cv);
  await expect(cv.locator('figure[data-chart="cv-metrics"]')).toBeVisible();
  const ext = page.getByTestId('eval-external');
  await ext.getByRole('button', { name: 'Load Arena demo scores' }).click();
  await expect(ext.getByTestId('name-matches')).toContainText('8 of 18 LLMs matched');
  await ext.getByLabel('Bootstrap resamples').fill('200');
  await runSection(ext);
  await expect(ext.locator('figure[data-chart="table2-external-scatter"]')).toBeVisible();
  found.push(...(await clashes(page.getByTestId('evaluate'))));

  expect(found).toEqual([]);
});

test('the sticky Fit bar covers none of the fit settings on first view', async ({ page }) => {
  await openFitted(page);
  for (const label of ['Optimiser', 'Mode']) {
    const field = page.getByLabel(label, { exact: true }).first();
    await expect(field).toBeVisible();
    // Below the fold is fine (scrolling shows it); inside the viewport it must be on top.
    const covered = await field.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (y > window.innerHeight || y < 0) return false;
      const hit = document.elementFromPoint(x, y);
      return hit === null || !(el === hit || el.contains(hit));
    });
    expect(covered, `${label} is under another element`).toBe(false);
  }
});

test('the Items table shows each flag in full, inside its panel', async ({ page }) => {
  await openFitted(page);
  const scroll = page.locator('.items-view .data-table .table-scroll').first();
  await expect(scroll.locator('.flag-chip').first()).toBeVisible();
  // Every chip of the rows in view lies inside the table's visible box (not cut at its
  // right edge, nor behind a horizontal scroll) and shows its whole text.
  const cut = await scroll.evaluate((box) => {
    const edge = box.getBoundingClientRect();
    return [...box.querySelectorAll('.flag-chip')]
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.top < edge.bottom && r.bottom > edge.top;
      })
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.right > edge.right + 1 || c.scrollWidth > c.clientWidth + 1;
      })
      .map((c) => c.textContent ?? '');
  });
  expect(cut).toEqual([]);
});
