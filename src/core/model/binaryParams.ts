/** The binary family's map from the optimiser's free vector to natural parameters and back. */
import type { BinaryLayout, BinaryModel } from './types';
import { sigmoid } from './math';
import { groupPenalty, type GroupSlots, type PriorOverride } from './hprior';
import {
  thetaForward,
  thetaBackward,
  itemRidge,
  span,
  frame,
  precisionOf,
  PRIOR_SD,
  binaryFreeLayout,
  type Mode,
  type BinaryParameterisation,
} from './params';

/** The binary family's parameterisation. 1PL in paper mode fixes a = 1. */
export function binaryParameterisation(
  L: BinaryLayout,
  model: BinaryModel,
  mode: Mode,
  override: PriorOverride = {},
): BinaryParameterisation {
  const F = binaryFreeLayout(L, model, mode);
  const { J, I } = L;
  const useG = model === '3pl' || model === '4pl';
  const useU = model === '4pl';
  const groups: GroupSlots[] = [];
  if (mode === 'default') {
    if (F.nA === I) groups.push(span('slope', L.a, I));
    groups.push(span('d', L.d, I));
    if (useG) groups.push(span('logitG', L.g, I, 'logit'));
    if (useU) groups.push(span('logitU', L.u, I, 'logit'));
  }
  const P = {
    ...frame(F, L.size, groups, override),
    priorPrecision(): Float64Array {
      const out = precisionOf(P, L.theta, J, mode);
      if (mode === 'default' && F.nA === 1) out[L.a] = 1 / PRIOR_SD.item ** 2;
      return out;
    },
    toNatural(x, nat) {
      thetaForward(x, F.theta, J, mode, nat, L.theta);
      for (let i = 0; i < I; i++) {
        nat[L.a + i] = F.nA === I ? x[F.a + i] : F.nA === 1 ? x[F.a] : 1;
        nat[L.d + i] = x[F.d + i];
        nat[L.g + i] = useG ? sigmoid(x[F.gBar + i]) : 0;
        nat[L.u + i] = useU ? sigmoid(x[F.uBar + i]) : 1;
      }
    },
    pullback(x, nat, g, gx) {
      let penalty = 0;
      // The shared 1PL slope is stored I times but is one parameter: a weak fixed ridge.
      if (mode === 'default' && F.nA === 1) penalty += itemRidge(nat, g, L.a, L.a + 1);
      if (mode === 'default') penalty += groupPenalty(groups, P.priors, nat, g);
      const prior = thetaBackward(x, F.theta, J, mode, nat, L.theta, g, gx);
      if (!gx) return { prior, penalty };
      if (F.nA === 1) gx[F.a] = g[L.a]; // The engine wrote the shared slope's gradient into a[0] only.
      for (let i = 0; i < I; i++) {
        if (F.nA === I) gx[F.a + i] = g[L.a + i];
        gx[F.d + i] = g[L.d + i];
        if (useG) gx[F.gBar + i] = g[L.g + i] * nat[L.g + i] * (1 - nat[L.g + i]);
        if (useU) gx[F.uBar + i] = g[L.u + i] * nat[L.u + i] * (1 - nat[L.u + i]);
      }
      return { prior, penalty };
    },
  } satisfies BinaryParameterisation;
  return P;
}
