import { spawnSync } from 'node:child_process';
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { evaluateFused } from '../fused';
import type { Problem } from '../types';
import { createTfjsEngine } from './engine';
import { planChunks } from './layout';
import { maxRelError, testProblem } from './testing';

async function run(
  problem: Problem,
  nat: Float64Array,
  opts = {},
  backend: 'cpu' | 'wasm' = 'cpu',
) {
  const engine = await createTfjsEngine(problem, backend, opts);
  const grad = new Float64Array(nat.length);
  const ce = await engine.evaluate(nat, grad);
  engine.dispose();
  return { ce, grad };
}

describe('planChunks', () => {
  it('places every observed cell once, rows of one item, within the cap', () => {
    const { cells } = testProblem('llmnrm', { J: 9, I: 40 }).problem;
    for (const cap of [1, 7, 30, 1e9]) {
      const plans = planChunks(cells, cap);
      const seen = new Uint8Array(cells.n);
      for (const p of plans) {
        if (p.items.length > 1) expect(p.items.length * p.width).toBeLessThanOrEqual(cap);
        p.cells.forEach((q, s) => {
          if (q < 0) return;
          seen[q]++;
          expect(cells.cellI[q]).toBe(p.items[Math.floor(s / p.width)]);
        });
      }
      expect([...seen].every((c) => c === 1)).toBe(true);
      if (cap === 1e9) expect(plans.length).toBe(1);
    }
  });
});

describe('tfjs engine', () => {
  it('gives the same CE and gradient with tiny chunks as with one chunk', async () => {
    for (const model of ['llmnrm', '3pl'] as const) {
      const { problem, nat } = testProblem(model);
      expect(planChunks(problem.cells, 5).length).toBeGreaterThan(5);
      const one = await run(problem, nat);
      const many = await run(problem, nat, { maxCellsPerChunk: 5 });
      expect(Math.abs(many.ce - one.ce) / one.ce).toBeLessThan(1e-6);
      expect(maxRelError(many.grad, one.grad)).toBeLessThan(1e-5);
    }
  });

  it('gives the same result with the ScatterNd and the segment-sum gather gradient', async () => {
    const { problem, nat } = testProblem('llmnrm');
    const seg = await run(problem, nat, { gatherGradient: 'segment' });
    const sc = await run(problem, nat, { gatherGradient: 'scatter' });
    expect(Math.abs(sc.ce - seg.ce) / seg.ce).toBeLessThan(1e-6);
    expect(maxRelError(sc.grad, seg.grad)).toBeLessThan(1e-5);
  });

  it('leaks no tensors: create/evaluate/dispose returns to the starting count', async () => {
    const { problem, nat } = testProblem('llmnrm');
    (await createTfjsEngine(problem, 'cpu')).dispose(); // registers and warms the backend
    const before = tf.memory().numTensors;
    const engine = await createTfjsEngine(problem, 'cpu', { maxCellsPerChunk: 40 });
    const uploaded = tf.memory().numTensors;
    expect(uploaded).toBeGreaterThan(before);
    await engine.evaluate(nat, new Float64Array(nat.length));
    await engine.evaluate(nat, null);
    expect(tf.memory().numTensors).toBe(uploaded);
    engine.dispose();
    expect(tf.memory().numTensors).toBe(before);
    await expect(engine.evaluate(nat, null)).rejects.toThrow(/dispose/);
  });

  it('stays finite and close to fused at extreme parameters', async () => {
    const cases = [
      ['llmnrm'],
      ['nrm-hard'],
      ['4pl'],
      ['2pl'],
      ['llmnrm', 'binary'],
      ['llmnrm', 'wrong'],
    ] as const;
    for (const [model, channel] of cases) {
      const { problem, nat } = testProblem(model, { scale: 6, channel });
      const ref = new Float64Array(nat.length);
      const ceRef = evaluateFused(problem, nat, ref);
      const { ce, grad } = await run(problem, nat, {}, 'wasm');
      expect(Number.isFinite(ce)).toBe(true);
      expect(grad.every(Number.isFinite)).toBe(true);
      expect(Math.abs(ce - ceRef) / ceRef, `${model} ${channel}`).toBeLessThan(1e-4);
      expect(maxRelError(grad, ref), `${model} ${channel}`).toBeLessThan(1e-4);
    }
  });

  it('handles items without observed cells and alternating backends', async () => {
    const { problem, nat } = testProblem('no-position');
    const c = problem.cells;
    const keep = [...Array(c.n).keys()].filter((q) => c.cellI[q] !== 3);
    const cells = {
      ...c,
      n: keep.length,
      cellJ: Uint32Array.from(keep, (q) => c.cellJ[q]),
      cellI: Uint32Array.from(keep, (q) => c.cellI[q]),
      correct: Float32Array.from(keep, (q) => c.correct[q]),
      target: Float32Array.from(
        keep.flatMap((q) => [...c.target.subarray(q * c.Kmax, (q + 1) * c.Kmax)]),
      ),
    };
    const p2 = { ...problem, cells } as Problem;
    const ref = new Float64Array(nat.length);
    const ceRef = evaluateFused(p2, nat, ref);
    const cpu = await createTfjsEngine(p2, 'cpu');
    const wasm = await createTfjsEngine(p2, 'wasm');
    const g = new Float64Array(nat.length);
    const ceWasm = await wasm.evaluate(nat, null);
    const ceCpu = await cpu.evaluate(nat, g);
    cpu.dispose();
    wasm.dispose();
    expect(Math.abs(ceCpu - ceRef) / ceRef).toBeLessThan(1e-4);
    expect(Math.abs(ceWasm - ceRef) / ceRef).toBeLessThan(1e-4);
    expect(maxRelError(g, ref)).toBeLessThan(1e-4);
  });

  it('loads gradients and the wasm backend under plain Node (tsx, no bundler)', () => {
    // A Node entry point installs tfjs's Node set-up (src/node/tfjs.ts) first, as the CLI does.
    const code = `
      await import('./src/node/tfjs.ts');
      const { createTfjsEngine } = await import('./src/core/engines/tfjs/engine.ts');
      const { testProblem } = await import('./src/core/engines/tfjs/testing.ts');
      const { problem, nat } = testProblem('2pl');
      const e = await createTfjsEngine(problem, 'wasm');
      const g = new Float64Array(nat.length);
      const ce = await e.evaluate(nat, g);
      console.log(JSON.stringify({ ce, g: g.some((v) => v !== 0) }));`;
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', code],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    const last = res.stdout.trim().split('\n').pop() ?? '';
    expect(last, res.stderr.slice(-2000)).toMatch(/^\{"ce":[0-9.]+,"g":true\}$/);
  });
});
