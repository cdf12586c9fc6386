import { channelCells } from '../../model/cells';
import { binaryParameterisation } from '../../model/binaryParams';
import { nominalParameterisation } from '../../model/nominalParams';
import { type Parameterisation } from '../../model/params';
import { createRng } from '../../model/rng';
import { simulateNominal } from '../../model/simulate';
import {
  binaryLayout,
  isBinary,
  nominalFlags,
  nominalLayout,
  type Channel,
  type ModelType,
} from '../../model/types';
import type { Problem } from '../types';
import type { GateForm } from '../../model/gate';

/**
 * Test helper: a small simulated problem (mixed option counts, 20% missing
 * unless `missing` says otherwise) for `model` (nominal models on `channel`,
 * default option), and natural parameters drawn through the model's own
 * parameterisation, so centring, positivity and unused blocks are as in a
 * fit. The parameters' random stream is seeded with seed · 7919 + `salt`.
 */
export function testProblem(
  model: ModelType,
  opts: {
    J?: number;
    I?: number;
    seed?: number;
    scale?: number;
    channel?: Channel;
    missing?: number;
    salt?: number;
    /** The gate's form (default 'eq10'). */
    gate?: GateForm;
  } = {},
): { problem: Problem; nat: Float64Array } {
  const { data } = simulateNominal({
    J: opts.J ?? 8,
    I: opts.I ?? 30,
    seed: opts.seed ?? 5,
    missing: opts.missing ?? 0.2,
    concentration: 20,
  });
  const hard = model === 'nrm-hard' || isBinary(model);
  const channel = isBinary(model) ? 'binary' : (opts.channel ?? 'option');
  const cells = channelCells(data, channel, hard);
  let problem: Problem;
  let P: Parameterisation;
  if (isBinary(model)) {
    const layout = binaryLayout(data.J, data.I);
    problem = { kind: 'binary', model, layout, cells };
    P = binaryParameterisation(layout, model, 'default');
  } else {
    const flags = nominalFlags(model, opts.gate ?? 'eq10');
    const layout = nominalLayout(data.J, data.I, data.Kmax);
    problem = { kind: 'nominal', flags, layout, cells, channel };
    P = nominalParameterisation(layout, flags, data.nOptions, 'default');
  }
  const rng = createRng((opts.seed ?? 5) * 7919 + (opts.salt ?? 13));
  const x = new Float64Array(P.size);
  for (let q = 0; q < x.length; q++) x[q] = (opts.scale ?? 0.8) * rng.normal();
  const nat = new Float64Array(P.natSize);
  P.toNatural(x, nat);
  return { problem, nat };
}

/** max |x − y| / max |y| (0 when y is all zero and x equals it). */
export function maxRelError(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let err = 0;
  let scale = 0;
  for (let q = 0; q < y.length; q++) {
    err = Math.max(err, Math.abs(x[q] - y[q]));
    scale = Math.max(scale, Math.abs(y[q]));
  }
  return scale > 0 ? err / scale : err;
}
