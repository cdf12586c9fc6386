/** The nominal family's map from the optimiser's free vector to natural parameters and back. */
import type { NominalFlags, NominalLayout } from './types';
import { sigmoid, softplus } from './math';
import { MARGIN_KAPPA_SD } from './gate';
import { groupPenalty, type GroupSlots, type PriorOverride } from './hprior';
import {
  thetaForward,
  thetaBackward,
  centreColumns,
  centre,
  span,
  frame,
  precisionOf,
  PRIOR_SD,
  nominalFreeLayout,
  type Mode,
  type NominalParameterisation,
} from './params';

/** The nominal family's parameterisation (centring, softplus, θ standardising). */
export function nominalParameterisation(
  L: NominalLayout,
  f: NominalFlags,
  nOptions: Uint8Array,
  mode: Mode,
  override: PriorOverride = {},
): NominalParameterisation {
  const F = nominalFreeLayout(L, f);
  const { J, I, Kmax } = L;
  // Constraints (geometric-mean-1 sharpness, δ centred over LLMs) need ≥ 2 LLMs.
  const geo = mode === 'default' && J >= 2;
  const groups: GroupSlots[] = [];
  if (mode === 'default') {
    if (f.sharpness && geo) groups.push(span('logS', L.s, J, 'log'));
    if (f.position && geo) groups.push(span('delta', L.delta, J * Kmax));
    if (f.fallback) groups.push(span('rho', L.rho, J * Kmax));
    for (const [name, off] of [
      ['a', L.a],
      ['c', L.c],
    ] as const) {
      const slots: number[] = [];
      for (let i = 0; i < I; i++)
        for (let k = 0; k < nOptions[i]; k++) slots.push(off + i * Kmax + k);
      groups.push({ group: name, slots: Uint32Array.from(slots), transform: 'id' });
    }
  }
  const P = {
    ...frame(F, L.size, groups, override),
    priorPrecision(): Float64Array {
      const out = precisionOf(P, L.theta, J, mode);
      if (mode === 'score') {
        if (f.sharpness) out.fill(1 / PRIOR_SD.logS ** 2, L.s, L.s + J);
        if (f.position) out.fill(1 / PRIOR_SD.delta ** 2, L.delta, L.delta + J * Kmax);
        if (f.fallback) out.fill(1 / PRIOR_SD.rho ** 2, L.rho, L.rho + J * Kmax);
      }
      return out;
    },
    toNatural(x, nat) {
      nat.fill(0);
      thetaForward(x, F.theta, J, mode, nat, L.theta);
      let mS = 0;
      if (f.sharpness && geo) for (let j = 0; j < J; j++) mS += x[F.sBar + j] / J;
      for (let j = 0; j < J; j++) {
        if (!f.sharpness) nat[L.s + j] = 1;
        else nat[L.s + j] = geo ? Math.exp(x[F.sBar + j] - mS) : softplus(x[F.sBar + j]);
        if (f.position) centre(x, F.delta + j * Kmax, Kmax, nat, L.delta + j * Kmax);
        if (f.fallback) centre(x, F.rho + j * Kmax, Kmax, nat, L.rho + j * Kmax);
      }
      if (f.position && geo) centreColumns(nat, L.delta, J, Kmax);
      for (let i = 0; i < I; i++) {
        centre(x, F.a + i * Kmax, nOptions[i], nat, L.a + i * Kmax);
        centre(x, F.c + i * Kmax, nOptions[i], nat, L.c + i * Kmax);
      }
      if (f.fallback) {
        nat[L.w0] = x[F.w0];
        nat[L.kappa] = softplus(x[F.kappaBar]);
      }
    },
    pullback(x, nat, g, gx) {
      let penalty = 0;
      if (mode === 'score') {
        for (let j = 0; j < J; j++) {
          if (f.sharpness && !geo) {
            const ls = Math.log(nat[L.s + j]);
            penalty += (0.5 * ls * ls) / PRIOR_SD.logS ** 2;
            g[L.s + j] += ls / nat[L.s + j] / PRIOR_SD.logS ** 2;
          }
          for (let k = 0; k < Kmax; k++) {
            if (f.position && !geo) {
              const d = nat[L.delta + j * Kmax + k];
              penalty += (0.5 * d * d) / PRIOR_SD.delta ** 2;
              g[L.delta + j * Kmax + k] += d / PRIOR_SD.delta ** 2;
            }
            if (f.fallback) {
              const r = nat[L.rho + j * Kmax + k];
              penalty += (0.5 * r * r) / PRIOR_SD.rho ** 2;
              g[L.rho + j * Kmax + k] += r / PRIOR_SD.rho ** 2;
            }
          }
        }
      }
      if (mode === 'default') penalty += groupPenalty(groups, P.priors, nat, g);
      if (mode === 'default' && f.fallback && f.gate === 'margin') {
        // The margin gate's κ ~ N(0, MARGIN_KAPPA_SD²) (gate.ts): no step-function gate.
        const k = nat[L.kappa];
        penalty += (0.5 * k * k) / MARGIN_KAPPA_SD ** 2;
        g[L.kappa] += k / MARGIN_KAPPA_SD ** 2;
      }
      const prior = thetaBackward(x, F.theta, J, mode, nat, L.theta, g, gx);
      if (!gx) return { prior, penalty };
      if (f.position && geo) centreColumns(g, L.delta, J, Kmax);
      let mG = 0;
      if (f.sharpness && geo) for (let j = 0; j < J; j++) mG += (g[L.s + j] * nat[L.s + j]) / J;
      for (let j = 0; j < J; j++) {
        if (f.sharpness)
          gx[F.sBar + j] = geo
            ? g[L.s + j] * nat[L.s + j] - mG
            : g[L.s + j] * sigmoid(x[F.sBar + j]);
        if (f.position) centre(g, L.delta + j * Kmax, Kmax, gx, F.delta + j * Kmax);
        if (f.fallback) centre(g, L.rho + j * Kmax, Kmax, gx, F.rho + j * Kmax);
      }
      for (let i = 0; i < I; i++) {
        const K = nOptions[i];
        centre(g, L.a + i * Kmax, K, gx, F.a + i * Kmax);
        centre(g, L.c + i * Kmax, K, gx, F.c + i * Kmax);
        for (let k = K; k < Kmax; k++) {
          gx[F.a + i * Kmax + k] = 0;
          gx[F.c + i * Kmax + k] = 0;
        }
      }
      if (f.fallback) {
        gx[F.w0] = g[L.w0];
        gx[F.kappaBar] = g[L.kappa] * sigmoid(x[F.kappaBar]);
      }
      return { prior, penalty };
    },
  } satisfies NominalParameterisation;
  return P;
}
