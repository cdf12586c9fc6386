/**
 * Group priors for the well-posed default. Each group of parameters (all
 * option slopes a, all intercepts c, every LLM's log-sharpness, ...) shares a
 * prior N(μ, σ²). The scales are σ_g = λ · r_g: a reference shape r (the
 * groups' relative scales, in the model's own units) times one prior strength
 * λ that `fit/strength.ts` chooses per data set and model by held-out
 * likelihood on the training cells; in a model with a positional bias or a
 * fallback, λ scales those alone and a, c and log s sit at FIXED_PRIORS.
 * A user may fix any group's σ. This file
 * holds the groups, what each covers and the penalty for given scales. Why
 * this scheme (and not empirical Bayes) is in docs/priors.md.
 */

/** The parameter groups that carry a prior. Local coordinates: log s, logit g, logit u. */
export type PriorGroup = 'a' | 'c' | 'logS' | 'delta' | 'rho' | 'slope' | 'd' | 'logitG' | 'logitU';

export const PRIOR_GROUPS: readonly PriorGroup[] = [
  'a',
  'c',
  'logS',
  'delta',
  'rho',
  'slope',
  'd',
  'logitG',
  'logitU',
];

/** A group's prior: N(mean, sd²) on its local coordinate. */
export interface PriorSpec {
  sd: number;
  mean: number;
}

export type PriorSpecs = Partial<Record<PriorGroup, PriorSpec>>;

/**
 * The reference shape r_g (at prior strength λ = 1). θ is standardised, so a
 * slope of 1 moves an option's log-odds by 1 per sd of ability; intercepts
 * spread wider (items differ in difficulty more than in discrimination);
 * sharpness within e^±0.3 and position/fallback logits within ±0.3/±0.5 of
 * each other are typical LLM behaviour. Binary slopes centre on 1, the
 * asymptotes on g ≈ 0.12 and u ≈ 0.88.
 */
export const REFERENCE_PRIORS: Record<PriorGroup, PriorSpec> = {
  a: { sd: 1, mean: 0 },
  c: { sd: 3, mean: 0 },
  logS: { sd: 0.3, mean: 0 },
  delta: { sd: 0.3, mean: 0 },
  rho: { sd: 0.5, mean: 0 },
  slope: { sd: 1, mean: 1 },
  d: { sd: 3, mean: 0 },
  logitG: { sd: 1, mean: -2 },
  logitU: { sd: 1, mean: 2 },
};

/** The prior strengths λ the default chooses among (σ = λ · r: larger is weaker). */
export const STRENGTH_GRID: readonly number[] = [0.5, 1, 2, 4];

/**
 * The groups λ scales where a model has one of them: the LLM's positional
 * bias and fallback. The other groups of such a model sit at FIXED_PRIORS
 * where the fit's `itemPriors` is 'fixed' (`fixGroups`).
 */
export const STRENGTH_GROUPS: readonly PriorGroup[] = ['delta', 'rho'];

/**
 * Fixed prior sds of the option slopes, intercepts and log-sharpness in a
 * model with a STRENGTH_GROUPS group: weakly informative, as mirt users set
 * item priors. One λ for every group made θ follow λ, whose held-out curve
 * is flat near its minimum: on the reading demo ∂θ/∂log λ reached 1.03 SE
 * per unit (Llama-3.2-1B), through the item groups, and with them fixed the
 * sharpness prior's λ moved θ as much on economics (1.25, Qwen2.5-0.5B), since
 * s and θ trade off. Chosen by held-out option log-loss on the economics,
 * reading and pooled demos (docs/priors.md): item strengths 1, 1.5, 2 and 3
 * times the reference shape, log s at 0.15 and 0.3, δ and ρ fixed too.
 * Soft data only: where every cell is one-hot (`itemPriors` 'strength') a
 * cell carries far less, and one λ for every group adapts to it.
 */
export const FIXED_PRIORS: Partial<Record<PriorGroup, number>> = { a: 2, c: 6, logS: 0.3 };

/** A group as the priors see it: a group name, and its fixed sd where it has one. */
export interface PriorGroupRef {
  group: PriorGroup;
  /** The fixed sd (FIXED_PRIORS, set by `fixGroups`): the group does not follow λ. */
  fixedSd?: number;
}

/**
 * Fixes the groups of FIXED_PRIORS at their sds where the model has a
 * STRENGTH_GROUPS group (in place; returns the groups).
 */
export function fixGroups<G extends PriorGroupRef>(groups: readonly G[]): readonly G[] {
  if (!groups.some((G) => STRENGTH_GROUPS.includes(G.group))) return groups;
  for (const G of groups)
    if (FIXED_PRIORS[G.group] !== undefined) G.fixedSd = FIXED_PRIORS[G.group];
  return groups;
}

/** Whether a group's prior follows λ (else it sits at its fixed sd). */
export function followsStrength(G: PriorGroupRef): boolean {
  return G.fixedSd === undefined;
}

/** Specs for the groups at strength λ (or their fixed sds), with the user's fixed sds kept. */
export function specsAt(
  groups: readonly PriorGroupRef[],
  lambda: number,
  override: PriorOverride,
): PriorSpecs {
  const out: PriorSpecs = {};
  for (const G of groups) {
    const ref = REFERENCE_PRIORS[G.group];
    out[G.group] = { mean: ref.mean, sd: override[G.group] ?? G.fixedSd ?? lambda * ref.sd };
  }
  return out;
}

/** User-fixed prior scales (sd), by group; the rest are λ · r_g at the chosen strength. */
export type PriorOverride = Partial<Record<PriorGroup, number>>;

/** What one group's prior was at the end of a fit: what fit.json and the UI report. */
export interface PriorScale {
  group: PriorGroup;
  /** Parameters in the group. */
  n: number;
  sd: number;
  mean: number;
  /** Chosen from the data through λ (false: fixed by the user, or at FIXED_PRIORS). */
  learned: boolean;
}

/**
 * How a group's local coordinate is read from a natural slot: as is, log
 * (sharpness) or logit (asymptotes).
 */
export type SlotTransform = 'id' | 'log' | 'logit';

/** A group's natural slots and their transform. */
export interface GroupSlots extends PriorGroupRef {
  slots: Uint32Array;
  transform: SlotTransform;
}

/** Local coordinate of a natural value, and d(local)/d(natural). */
export function toLocal(t: SlotTransform, v: number): { x: number; dx: number } {
  if (t === 'id') return { x: v, dx: 1 };
  if (t === 'log') return { x: Math.log(v), dx: 1 / v };
  return { x: Math.log(v) - Math.log1p(-v), dx: 1 / (v * (1 - v)) };
}

/**
 * Σ over groups of Σ (x − μ)² / 2σ² at the natural vector `nat`; the gradient
 * is added into g (natural). Groups without a spec carry no prior.
 */
export function groupPenalty(
  groups: readonly GroupSlots[],
  specs: PriorSpecs,
  nat: Float64Array,
  g: Float64Array | null,
): number {
  let pen = 0;
  for (const G of groups) {
    const spec = specs[G.group];
    if (!spec) continue;
    const w = 1 / (spec.sd * spec.sd);
    for (const q of G.slots) {
      const { x, dx } = toLocal(G.transform, nat[q]);
      const r = x - spec.mean;
      pen += 0.5 * w * r * r;
      if (g) g[q] += w * r * dx;
    }
  }
  return pen;
}

/** Parse `--prior a=1,c=2,logS=0.3` into an override; throws on unknown groups or bad numbers. */
export function parsePriorOverride(text: string): PriorOverride {
  const out: PriorOverride = {};
  for (const part of text.split(',').map((s) => s.trim())) {
    if (!part) continue;
    const [name, value] = part.split('=').map((s) => s.trim());
    if (!(PRIOR_GROUPS as readonly string[]).includes(name))
      throw new Error(
        `--prior: unknown group "${name}"; expected one of ${PRIOR_GROUPS.join(', ')}.`,
      );
    const sd = Number(value);
    if (!(sd > 0) || !Number.isFinite(sd))
      throw new Error(`--prior: ${name} needs a positive sd, got "${value ?? ''}".`);
    out[name as PriorGroup] = sd;
  }
  return out;
}
