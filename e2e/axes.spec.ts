import { expect, test } from '@playwright/test';
import { chartStartingWith, download, open, openTab } from './helpers';

/**
 * Every quantitative axis (one whose tick labels are numbers) has a title:
 * an axis title, or a colour bar's title. Category axes (LLM names,
 * benchmarks, option letters) label themselves.
 */
async function untitledAxes(page: import('@playwright/test').Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('figure[data-chart]')].flatMap((fig) => {
      const svg = fig.querySelector('svg');
      if (!svg) return [];
      const numeric = [...svg.querySelectorAll('g')].filter((g) => {
        const ticks = [...g.children].filter((c) => c.classList.contains('tick'));
        if (!ticks.length) return false;
        return ticks.every((t) => {
          const s = (t.textContent ?? '').replace(/[−–]/g, '-').replace(/[%,\s]/g, '');
          return s === '' || Number.isFinite(Number(s));
        });
      }).length;
      const titles = svg.querySelectorAll('.axis-label, .legend-title').length;
      return numeric > titles ? [`${fig.getAttribute('data-chart')}: ${numeric} > ${titles}`] : [];
    }),
  );
}

test('every quantitative axis in every view of the demo has a title', async ({ page }) => {
  await open(page, true);
  for (const tab of ['Items', 'Information', 'Distractors', 'LLMs', 'Psychometrics']) {
    await openTab(page, tab);
    await expect(page.locator('figure[data-chart] svg').first()).toBeVisible();
    expect(await untitledAxes(page), tab).toEqual([]);
  }
});

test('chart text is drawn at 11 px or more on screen (1,400 px wide window)', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page, true);
  for (const tab of ['Items', 'Information', 'Distractors', 'LLMs', 'Psychometrics']) {
    await openTab(page, tab);
    await expect(page.locator('figure[data-chart] svg').first()).toBeVisible();
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<SVGSVGElement>('figure[data-chart] svg')].flatMap((svg) => {
        const scale = svg.getBoundingClientRect().width / (svg.viewBox.baseVal.width || 1);
        return [...svg.querySelectorAll('text')]
          .filter((t) => t.textContent?.trim())
          .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)
          .filter((px) => px < 10.9)
          .map((px) => `${svg.closest('figure')?.getAttribute('data-chart')}: ${px.toFixed(1)} px`);
      }),
    );
    expect([...new Set(small)], tab).toEqual([]);
  }
});

test('an exported SVG carries a visible title naming its item', async ({ page }) => {
  await open(page, true);
  const fig = chartStartingWith(page, 'icc-');
  const id = (await fig.getAttribute('data-chart'))!.slice('icc-'.length);
  const svg = await download(page, fig.getByRole('button', { name: 'SVG' }));
  const text = svg.bytes.toString('utf8');
  expect(text).toMatch(new RegExp(`<text class="export-title"[^>]*>[^<]*${id}`));
});
