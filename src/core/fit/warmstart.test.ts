import { describe, expect, it } from 'vitest';
import { simulateNominal } from '../model/simulate';
import { fitDatasetFull } from './fit';
import { freeVectorFromFit } from './warmstart';

describe('continuing a fit from its fit.json', () => {
  const { data } = simulateNominal({ J: 12, I: 50, seed: 3, concentration: 50 });
  for (const model of ['llmnrm', '2pl', '3pl'] as const) {
    it(`${model}: the free vector rebuilt from fit.json reproduces the fit's objective`, async () => {
      const first = await fitDatasetFull(data, { model });
      const x = freeVectorFromFit(first.json, data);
      const again = await fitDatasetFull(data, { ...first.json.settings, steps: 1 }, { start: x });
      // One more step from the rebuilt point cannot be worse than the fit it came from.
      expect(again.json.objective + again.json.penalty).toBeLessThanOrEqual(
        (first.json.objective + first.json.penalty) * (1 + 1e-9),
      );
      expect(
        Math.abs(again.json.objective - first.json.objective) / first.json.objective,
      ).toBeLessThan(1e-4);
    });
  }
});
