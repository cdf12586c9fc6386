import { expect, test } from '@playwright/test';
import Papa from 'papaparse';
import { download, open, openTab } from './helpers';

test.describe('Psychometrics view on the demo', () => {
  test('item fit, reliability, classical tables and DIF by family, with CSV export', async ({
    page,
  }) => {
    await open(page, true);
    await openTab(page, 'Psychometrics');
    const view = page.getByTestId('psychometrics');
    await expect(view.locator('[data-chart="item-fit"] circle[data-item]').first()).toBeAttached();
    const itemTable = view.locator('section', { has: page.locator('#itemfit-h') });
    const csv = await download(page, itemTable.getByRole('button', { name: 'CSV' }));
    expect(csv.name).toBe('itemfit.csv');
    const parsed = Papa.parse<Record<string, string>>(csv.bytes.toString('utf8'), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.meta.fields?.slice(0, 7).join(',')).toBe(
      'item,benchmark,infit,outfit,z_infit,z_outfit,n',
    );
    expect(parsed.data).toHaveLength(345);
    await expect(
      view.getByRole('region', { name: 'Reliability', exact: true }).last(),
    ).toContainText('naep-reading');
    await view.getByRole('button', { name: 'Group by model family' }).click();
    await expect(view.getByTestId('dif-summary')).toContainText(/of \d+ item × group rows flagged/);
    await expect(view.locator('[data-chart="dif-effect"] g[data-item]').first()).toBeAttached();
  });
});
