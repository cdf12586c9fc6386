import { describe, expect, it } from 'vitest';
import { buildCells } from '../../model/cells';
import { nominalParameterisation } from '../../model/nominalParams';
import { createRng } from '../../model/rng';
import { simulateNominal } from '../../model/simulate';
import { nominalFlags, nominalLayout } from '../../model/types';
import type { GateForm } from '../../model/gate';
import { evaluateFused } from '../fused';
import type { Problem } from '../types';
import { createParallelFusedEngine, type ShardPort } from './engine';
import { relMax } from '../../../../test/support/numeric';
import { createNodeParallelEngine } from '../../../node/parallel';
import { createShardServer } from './serve';
import type { ShardReply, ShardRequest } from './shard';
import { shardRanges } from './shard';

function problem(gate: GateForm = 'eq10'): { p: Problem; nat: Float64Array } {
  const { data } = simulateNominal({ J: 20, I: 150, seed: 12, missing: 0.1, concentration: 20 });
  const flags = nominalFlags('llmnrm', gate);
  const layout = nominalLayout(data.J, data.I, data.Kmax);
  const P = nominalParameterisation(layout, flags, data.nOptions, 'default');
  const rng = createRng(5);
  const x = Float64Array.from({ length: P.size }, () => 0.7 * rng.normal());
  const nat = new Float64Array(P.natSize);
  P.toNatural(x, nat);
  return { p: { kind: 'nominal', flags, layout, cells: buildCells(data, false) }, nat };
}

describe('parallel fused engine', () => {
  it('with the margin gate, each shard runs the WASM kernel (a per-cell gate) and matches the fused engine', async () => {
    const { p, nat } = problem('margin');
    const gRef = new Float64Array(nat.length);
    const ceRef = evaluateFused(p, nat, gRef);
    const engine = await createNodeParallelEngine(p, 3, 'wasm');
    try {
      // Float64 only under the margin gate (wasmFloat32).
      expect(engine.float32).toBe(false);
      const g = new Float64Array(nat.length);
      const ce = await engine.evaluate(nat, g);
      // Tolerances of wasm.test.ts, as for eq. 10's gate below.
      expect(Math.abs(ce - ceRef) / ceRef).toBeLessThan(1e-11);
      expect(relMax(g, gRef)).toBeLessThan(1e-10);
    } finally {
      engine.dispose();
    }
  });

  it('cuts shards on item boundaries and covers every cell once', () => {
    const { p } = problem();
    const r = shardRanges(p.cells, 3);
    expect(r[0][0]).toBe(0);
    expect(r[r.length - 1][1]).toBe(p.cells.n);
    for (let s = 1; s < r.length; s++) {
      expect(r[s][0]).toBe(r[s - 1][1]);
      expect(p.cells.cellI[r[s][0]]).not.toBe(p.cells.cellI[r[s][0] - 1]);
    }
  });

  // Each shard's cells in one set-up message, and in batches of 256 (the last one short).
  for (const batch of [undefined, 256]) {
    it(`matches the single-threaded fused engine (worker threads, batch ${batch ?? 'default'})`, async () => {
      const { p, nat } = problem();
      const gRef = new Float64Array(nat.length);
      const ceRef = evaluateFused(p, nat, gRef);
      if (batch)
        expect(
          shardRanges(p.cells, 3).every(([a, b]) => (b - a) % batch !== 0 && b - a > 2 * batch),
        ).toBe(true);
      const engine = await createNodeParallelEngine(p, 3, 'fused', batch);
      try {
        const g = new Float64Array(nat.length);
        const ce = await engine.evaluate(nat, g);
        // Only the summation order differs: float64 round-off.
        expect(Math.abs(ce - ceRef) / ceRef).toBeLessThan(1e-12);
        let worst = 0;
        for (let q = 0; q < g.length; q++) worst = Math.max(worst, Math.abs(g[q] - gRef[q]));
        expect(worst).toBeLessThan(1e-9);
        expect(await engine.evaluate(nat, null)).toBeCloseTo(ceRef, 8);
      } finally {
        engine.dispose();
      }
    });
    it(`runs the WASM kernel in each shard and matches the single-threaded fused engine (batch ${batch ?? 'default'})`, async () => {
      const { p, nat } = problem();
      const gRef = new Float64Array(nat.length);
      const ceRef = evaluateFused(p, nat, gRef);
      const engine = await createNodeParallelEngine(p, 3, 'wasm', batch);
      try {
        expect(engine.name).toBe('wasm');
        expect(engine.detail).toBe('spread over 3 shard workers');
        const g = new Float64Array(nat.length);
        const ce = await engine.evaluate(nat, g);
        // Tolerances of wasm.test.ts: the kernel's float64 polynomials and summation order.
        expect(Math.abs(ce - ceRef) / ceRef).toBeLessThan(1e-11);
        expect(relMax(g, gRef)).toBeLessThan(1e-10);
        expect(await engine.evaluate(nat, null)).toBe(ce);
        // `coarse` reaches the shards: their float32 kernel, to wasm.test.ts's tolerances.
        const ce32 = await engine.evaluate(nat, g, true);
        expect(ce32).not.toBe(ce);
        expect(Math.abs(ce32 - ceRef) / ceRef).toBeLessThan(1e-7);
        expect(relMax(g, gRef)).toBeLessThan(1e-6);
      } finally {
        engine.dispose();
      }
    });
  }

  /**
   * In-process shards (the real shard server, no worker): `broken` makes shard 1
   * fail at its second batch, by a reply or by a worker error.
   */
  function inProcess(broken: 'reply' | 'crash') {
    const terminated: number[] = [];
    let made = 0;
    const spawn = (): ShardPort => {
      const s = made++;
      let onMsg: (m: ShardReply) => void = () => {};
      let onErr: (e: Error) => void = () => {};
      let batches = 0;
      const serve = createShardServer((m) => queueMicrotask(() => onMsg(m)));
      return {
        post(msg: ShardRequest) {
          if (s === 1 && msg.type === 'cells' && ++batches === 2) {
            if (broken === 'crash') return queueMicrotask(() => onErr(new Error('worker crashed')));
            return queueMicrotask(() => onMsg({ type: 'error', id: 0, message: 'out of memory' }));
          }
          serve(msg);
        },
        onMessage: (h) => (onMsg = h),
        onError: (h) => (onErr = h),
        terminate: () => void terminated.push(s),
      };
    };
    return { spawn, terminated };
  }

  for (const broken of ['reply', 'crash'] as const) {
    it(`a shard failing while it takes its cells (${broken}) fails the set-up, and every shard is stopped`, async () => {
      const { p } = problem();
      const { spawn, terminated } = inProcess(broken);
      const made = createParallelFusedEngine(p, 3, spawn, 'fused', 256);
      await expect(made).rejects.toThrow(
        broken === 'crash' ? 'worker crashed' : 'shard 1: out of memory',
      );
      expect(terminated.sort()).toEqual([0, 1, 2]);
    });
  }

  it('in-process shards that do not fail match the fused engine (the fake above is faithful)', async () => {
    const { p, nat } = problem();
    const engine = await createParallelFusedEngine(
      p,
      3,
      inProcess('reply').spawn,
      'fused',
      100_000,
    );
    const ceRef = evaluateFused(p, nat, null);
    expect(Math.abs((await engine.evaluate(nat, null)) - ceRef) / ceRef).toBeLessThan(1e-12);
    engine.dispose();
  });
});
