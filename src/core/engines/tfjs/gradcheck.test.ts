import { describe, expect, it } from 'vitest';
import { BINARY_MODELS, NOMINAL_MODELS } from '../../model/types';
import { createRng } from '../../model/rng';
import { createTfjsEngine } from './engine';
import { testProblem } from './testing';

// Finite differences directly on the tfjs engine (autodiff), independent of the
// fused engine. The engine computes in float32 (CE ≈ 1e2, eps 6e-8, so CE noise
// ≈ 1e-5): central differences with h = 1e-2 keep round-off near 1e-3 and
// truncation (h²) near 1e-4, so the check uses 1e-2 relative to the largest
// gradient entry, on 30 random coordinates per model.
describe('finite-difference gradients of the tfjs engine (cpu backend)', () => {
  it.each([
    ...[...NOMINAL_MODELS, ...BINARY_MODELS].map((m) => [m, 'eq10'] as const),
    ['llmnrm', 'margin'] as const,
    ['no-position', 'margin'] as const,
  ])('%s, %s gate', async (model, gate) => {
    const { problem, nat } = testProblem(model, { J: 5, I: 8, seed: 8, gate });
    const engine = await createTfjsEngine(problem, 'cpu');
    try {
      const grad = new Float64Array(nat.length);
      await engine.evaluate(nat, grad);
      const scale = Math.max(...grad.map(Math.abs));
      const nonzero = Array.from(grad.keys()).filter((q) => grad[q] !== 0);
      const rng = createRng(4);
      const h = 1e-2;
      let worst = 0;
      for (let r = 0; r < 30; r++) {
        const q = nonzero[rng.int(nonzero.length)];
        const x = Float64Array.from(nat);
        x[q] = nat[q] + h;
        const fp = await engine.evaluate(x, null);
        x[q] = nat[q] - h;
        const fm = await engine.evaluate(x, null);
        worst = Math.max(worst, Math.abs((fp - fm) / (2 * h) - grad[q]));
      }
      expect(worst / scale).toBeLessThan(1e-2);
    } finally {
      engine.dispose();
    }
  });
});
