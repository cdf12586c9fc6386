import type { Dataset } from '../data/types';
import type { Engine, Problem } from '../engines/types';
import { buildCells, lazyCells } from '../model/cells';
import { binaryParameterisation } from '../model/binaryParams';
import { nominalParameterisation } from '../model/nominalParams';
import { type BinaryParameterisation, type NominalParameterisation } from '../model/params';
import { binaryLayout, isBinary, nominalFlags, nominalLayout } from '../model/types';
import { binaryStart, nominalStart } from './init';
import type { FitSettings } from './types';
import { resolveGate } from '../model/gate';
import { fixGroups, specsAt } from '../model/hprior';

/**
 * A fit problem: the engine's view (data + model), the parameterisation and the
 * start, for one model family (`kind`), so the free vector's layout (`P.free`)
 * is typed for the family once `kind` is checked.
 */
export type Posed = NominalPosed | BinaryPosed;

/** A nominal-family fit problem. */
export interface NominalPosed {
  kind: 'nominal';
  problem: Extract<Problem, { kind: 'nominal' }>;
  P: NominalParameterisation;
  x0: Float64Array;
}

/** A binary-family fit problem. */
export interface BinaryPosed {
  kind: 'binary';
  problem: Extract<Problem, { kind: 'binary' }>;
  P: BinaryParameterisation;
  x0: Float64Array;
}

/** Turn a data set and settings into the problem an engine and optimiser run on. */
export function pose(
  ds: Dataset,
  settings: Pick<FitSettings, 'model' | 'mode' | 'binaryTarget' | 'prior' | 'gate' | 'itemPriors'>,
  o: {
    /** The cells' per-cell arrays built on first use (cells.ts lazyCells). */
    lazy?: boolean;
  } = {},
): Posed {
  const cellsOf = o.lazy ? lazyCells : buildCells;
  const { model, mode } = settings;
  const override = settings.prior ?? {};
  if (isBinary(model)) {
    const cells = cellsOf(ds, (settings.binaryTarget ?? 'hard') === 'hard');
    const layout = binaryLayout(ds.J, ds.I);
    const P = binaryParameterisation(layout, model, mode, override);
    return {
      kind: 'binary',
      problem: { kind: 'binary', model, layout, cells },
      P,
      x0: binaryStart(ds, P.free, model, P.size),
    };
  }
  const flags = nominalFlags(model, resolveGate(mode, settings.gate));
  const cells = cellsOf(ds, flags.hardTargets);
  const layout = nominalLayout(ds.J, ds.I, ds.Kmax);
  const P = nominalParameterisation(layout, flags, ds.nOptions, mode, override);
  if ((settings.itemPriors ?? 'fixed') === 'fixed') {
    fixGroups(P.groups);
    P.priors = specsAt(P.groups, 1, override);
  }
  return {
    kind: 'nominal',
    problem: { kind: 'nominal', flags, layout, cells },
    P,
    x0: nominalStart(ds, P.free, flags, P.size),
  };
}

/** The parts of the objective at one point. */
export interface ObjectiveParts {
  crossEntropy: number;
  prior: number;
  penalty: number;
}

/**
 * The optimised objective (CE + ½Σθ² + penalty) as a function of the free vector,
 * evaluated by `engine`. `last` always holds the parts of the latest call.
 */
export function makeObjective(posed: Posed, engine: Engine) {
  const { P } = posed;
  const nat = new Float64Array(P.natSize);
  const gNat = new Float64Array(P.natSize);
  const last: ObjectiveParts = { crossEntropy: NaN, prior: NaN, penalty: NaN };
  /** `coarse`: float32 round-off is acceptable (Engine.evaluate). */
  const f = async (x: Float64Array, gx: Float64Array | null, coarse = false): Promise<number> => {
    P.toNatural(x, nat);
    const ce = await engine.evaluate(nat, gx ? gNat : null, coarse);
    if (!gx) gNat.fill(0);
    const { prior, penalty } = P.pullback(x, nat, gNat, gx);
    last.crossEntropy = ce;
    last.prior = prior;
    last.penalty = penalty;
    return ce + prior + penalty;
  };
  return { f, last, nat };
}
