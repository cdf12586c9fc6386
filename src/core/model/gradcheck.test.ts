import { describe, expect, it } from 'vitest';
import { buildCells, channelCells } from './cells';
import { evaluateFused } from '../engines/fused';
import type { Problem } from '../engines/types';
import { binaryParameterisation } from './binaryParams';
import { nominalParameterisation } from './nominalParams';
import { type Mode, type Parameterisation } from './params';
import type { GateForm } from './gate';
import { createRng } from './rng';
import { simulateNominal } from './simulate';
import {
  BINARY_MODELS,
  NOMINAL_MODELS,
  binaryLayout,
  isBinary,
  nominalFlags,
  nominalLayout,
  type ModelType,
} from './types';

/** Total objective (CE + prior + penalty) and its free-vector gradient. */
function objective(
  problem: Problem,
  P: Parameterisation,
  x: Float64Array,
  gx: Float64Array | null,
) {
  const nat = new Float64Array(P.natSize);
  const gNat = new Float64Array(P.natSize);
  P.toNatural(x, nat);
  const ce = evaluateFused(problem, nat, gx ? gNat : null);
  const { prior, penalty } = P.pullback(x, nat, gNat, gx);
  return ce + prior + penalty;
}

function setup(model: ModelType, mode: Mode, gate: GateForm) {
  const { data } = simulateNominal({ J: 7, I: 9, seed: 3, missing: 0.2, concentration: 20 });
  const hard = model === 'nrm-hard' || isBinary(model);
  const cells = buildCells(data, hard);
  if (isBinary(model)) {
    const layout = binaryLayout(data.J, data.I);
    const P = binaryParameterisation(layout, model, mode);
    return { problem: { kind: 'binary', model, layout, cells } as Problem, P };
  }
  const flags = nominalFlags(model, gate);
  const layout = nominalLayout(data.J, data.I, data.Kmax);
  const P = nominalParameterisation(layout, flags, data.nOptions, mode);
  return { problem: { kind: 'nominal', flags, layout, cells } as Problem, P };
}

/**
 * max_q |fd_q − g_q|, fd_q the Richardson extrapolation of two central
 * differences of the objective in x_q (error O(h⁴)); x is left as it was.
 */
function worstFdError(problem: Problem, P: Parameterisation, x: Float64Array, g: Float64Array) {
  const central = (q: number, h: number) => {
    const x0 = x[q];
    x[q] = x0 + h;
    const fp = objective(problem, P, x, null);
    x[q] = x0 - h;
    const fm = objective(problem, P, x, null);
    x[q] = x0;
    return (fp - fm) / (2 * h);
  };
  let worst = 0;
  for (let q = 0; q < x.length; q++) {
    const fd = (4 * central(q, 5e-5) - central(q, 1e-4)) / 3;
    worst = Math.max(worst, Math.abs(fd - g[q]));
  }
  return worst;
}

// Richardson-extrapolated central differences in float64: truncation ~h⁴, round-off
// ~1e-16·|L|/h, so 1e-6 relative (to the gradient's max norm) is a safe bound.
// Paper mode has eq. 10's gate only; the others are checked with both forms.
describe.each([
  ['paper', 'eq10'],
  ['default', 'eq10'],
  ['default', 'margin'],
  ['score', 'eq10'],
  ['score', 'margin'],
] as [Mode, GateForm][])(
  'finite-difference gradients (%s mode, %s gate, fused engine)',
  (mode, gate) => {
    it.each([...NOMINAL_MODELS, ...BINARY_MODELS])('%s', (model) => {
      const { problem, P } = setup(model, mode, gate);
      const rng = createRng(11);
      const x = new Float64Array(P.size);
      for (let q = 0; q < x.length; q++) x[q] = 0.5 * rng.normal();
      const g = new Float64Array(P.size);
      objective(problem, P, x, g);
      const scale = Math.max(...g.map(Math.abs));
      expect(scale).toBeGreaterThan(0);
      expect(worstFdError(problem, P, x, g) / scale).toBeLessThan(1e-6);
    });
  },
);

describe('finite-difference gradients of the scoring channels (fused engine)', () => {
  it.each([
    ['binary', 'eq10'],
    ['wrong', 'eq10'],
    ['binary', 'margin'],
    ['wrong', 'margin'],
  ] as const)('%s channel, %s gate', (channel, gate) => {
    const { data } = simulateNominal({ J: 7, I: 9, seed: 4, concentration: 5 });
    const flags = nominalFlags('llmnrm', gate);
    const layout = nominalLayout(data.J, data.I, data.Kmax);
    const P = nominalParameterisation(layout, flags, data.nOptions, 'score');
    const cells = channelCells(data, channel);
    expect(cells.n).toBeGreaterThan(0);
    const problem: Problem = { kind: 'nominal', flags, layout, cells, channel };
    const rng = createRng(2);
    const x = new Float64Array(P.size);
    for (let q = 0; q < x.length; q++) x[q] = 0.5 * rng.normal();
    const g = new Float64Array(P.size);
    objective(problem, P, x, g);
    const scale = Math.max(...g.map(Math.abs));
    expect(worstFdError(problem, P, x, g) / scale).toBeLessThan(1e-6);
  });
});
