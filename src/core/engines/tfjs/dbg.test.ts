import { it } from 'vitest';
import { evaluateFused } from '../fused';
import { createTfjsEngine } from './engine';
import { planChunks } from './layout';
import { maxRelError, testProblem } from './testing';
it('dbg', async () => {
  const out: string[] = [];
  for (const model of ['llmnrm', '4pl'] as const) {
    const { problem, nat } = testProblem(model, { J: 100, I: 2000 });
    const plans = planChunks(problem.cells, Math.floor((1 << 22) / problem.cells.Kmax));
    const padded = plans.reduce((s, p) => s + p.cells.length, 0);
    let t = performance.now();
    const ref = new Float64Array(nat.length);
    const ceRef = evaluateFused(problem, nat, ref);
    const tf = performance.now() - t;
    for (const backend of ['cpu', 'wasm'] as const) {
      const e = await createTfjsEngine(problem, backend);
      const g = new Float64Array(nat.length);
      await e.evaluate(nat, g);
      t = performance.now();
      const ce = await e.evaluate(nat, g);
      out.push(`${model} ${backend} n=${problem.cells.n} chunks=${plans.length} padded=${padded} fused=${tf.toFixed(0)}ms tfjs=${(performance.now() - t).toFixed(0)}ms ce=${((ce - ceRef) / ceRef).toExponential(2)} g=${maxRelError(g, ref).toExponential(2)}`);
      e.dispose();
    }
  }
  console.log('RESULT\n' + out.join('\n'));
});
