import { afterAll, describe, expect, it } from 'vitest';
import { evaluateFused } from '../fused';
import { BINARY_MODELS, NOMINAL_MODELS, type Channel, type ModelType } from '../../model/types';
import { createTfjsEngine, type TfjsBackend } from './engine';
import type { GateForm } from '../../model/gate';
import { maxRelError, testProblem } from './testing';

const worst: Record<string, { ce: number; grad: number }> = {};

afterAll(() => {
  // Measured figures, for the record (vitest shows console output on request).
  console.info('tfjs parity, worst relative errors:', JSON.stringify(worst));
});

// The tfjs engine runs in float32; 1e-4 relative is well above its round-off
// and far below any modelling difference (a wrong term moves CE by ≳1e-2).
const cases: [ModelType, Channel, GateForm?][] = [
  ...NOMINAL_MODELS.map((m): [ModelType, Channel] => [m, 'option']),
  ...BINARY_MODELS.map((m): [ModelType, Channel] => [m, 'binary']),
  // The margin gate (model/gate.ts) on every channel; the rest run eq. 10's.
  ['llmnrm', 'option', 'margin'],
  ['no-sharpness', 'option', 'margin'],
  ['no-position', 'option', 'margin'],
  ['llmnrm', 'binary', 'margin'],
  ['llmnrm', 'wrong', 'margin'],
  // Nominal models scored on correctness or on the wrong option only (score.ts).
  ['llmnrm', 'binary'],
  ['llmnrm', 'wrong'],
  ['nrm-hard', 'binary'],
  ['no-fallback', 'wrong'],
];

describe.each(['cpu', 'wasm'] as TfjsBackend[])('tfjs-%s matches the fused engine', (backend) => {
  it.each(cases)('%s (%s channel, %s gate)', async (model, channel, gate) => {
    const { problem, nat } = testProblem(model, { channel, gate });
    const gRef = new Float64Array(nat.length);
    const ceRef = evaluateFused(problem, nat, gRef);
    const engine = await createTfjsEngine(problem, backend);
    expect(engine.name).toBe(`tfjs-${backend}`);
    const g = new Float64Array(nat.length).fill(NaN);
    const ce = await engine.evaluate(nat, g);
    const ceOnly = await engine.evaluate(nat, null);
    engine.dispose();
    const ceErr = Math.abs(ce - ceRef) / Math.abs(ceRef);
    const gErr = maxRelError(g, gRef);
    const w = (worst[backend] ??= { ce: 0, grad: 0 });
    w.ce = Math.max(w.ce, ceErr);
    w.grad = Math.max(w.grad, gErr);
    expect(ceErr).toBeLessThan(1e-4);
    expect(ceOnly).toBe(ce);
    expect(gErr).toBeLessThan(1e-4);
  });
});
