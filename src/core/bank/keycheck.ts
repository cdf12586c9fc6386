/**
 * A likelihood check of an item's key against its cells (issue 31).
 *
 * The fitted LLM-NRM cannot tell keys apart: the key enters it only through the
 * fallback gate, and where the gate is shut (as on the NAEP demo) swapping the
 * key changes no probability at all. So the check refits the item under a small
 * model in which the key matters, with every LLM's θ held at the fit:
 *
 *   P(key | θ_j)        = σ(α θ_j + β),   α ≥ 0 (the key is chosen more by stronger LLMs),
 *   P(wrong option m)   = (1 − σ(α θ_j + β)) π_m   (fixed shares over the wrong options),
 *
 * with α and β given the bank's prior (the median and spread of every item's
 * (α, β) with its recorded key: most keys are right, so an item must look like
 * the bank's items to fit well). The log-likelihood of the cells (soft:
 * Σ_j Σ_k p_jk log P_k) plus the log prior is maximised once with each option
 * as the key; the gain of option d is that maximum with d as key minus the
 * maximum with the recorded key, in nats. It is evidence from the observed
 * cells at the LLMs' fitted θ only: nothing is extrapolated.
 */

/** One item's cells: the θ of each LLM that answered and its distribution over the K options. */
export interface KeyCells {
  K: number;
  theta: ArrayLike<number>;
  /** p[q][k]: LLM q's probability of option k (sums to 1 over k). */
  p: ArrayLike<number>[];
}

/** A normal prior on the key curve's slope α and intercept β. */
export interface KeyPrior {
  alphaMean: number;
  alphaSd: number;
  betaMean: number;
  betaSd: number;
  /** How many items it was estimated from; 0 for the weak prior. */
  items: number;
}

/** The weak prior of the first pass, from which the bank's prior is estimated. */
export const WEAK_KEY_PRIOR: KeyPrior = {
  alphaMean: 1,
  alphaSd: 3,
  betaMean: 0,
  betaSd: 5,
  items: 0,
};

/** The key curve fitted with option k as key, and its log posterior (nats, up to a constant). */
export interface KeyFit {
  key: number;
  alpha: number;
  beta: number;
  /** Log-likelihood of the cells (nats). */
  logLik: number;
  /** logLik + log prior density of (α, β) (the prior's constant dropped). */
  logPost: number;
}

const log1pExp = (x: number) => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));

/**
 * Fit σ(αθ + β) (α ≥ 0) to the mass each LLM puts on option k, with the wrong
 * options sharing the rest in the proportions the cells give them (their
 * maximum-likelihood shares), by projected Newton on the concave log posterior.
 */
export function fitKeyCurve(cells: KeyCells, k: number, prior: KeyPrior): KeyFit {
  const { K, theta, p } = cells;
  const n = p.length;
  // The wrong options' part: Σ_m n_m log(n_m / N), n_m the mass on m.
  const mass = new Float64Array(K);
  for (let q = 0; q < n; q++) for (let m = 0; m < K; m++) mass[m] += p[q][m];
  let wrongTotal = 0;
  for (let m = 0; m < K; m++) if (m !== k) wrongTotal += mass[m];
  let shares = 0;
  for (let m = 0; m < K; m++)
    if (m !== k && mass[m] > 0) shares += mass[m] * Math.log(mass[m] / wrongTotal);
  const y = new Float64Array(n);
  for (let q = 0; q < n; q++) y[q] = Math.min(1, Math.max(0, p[q][k]));
  const va = prior.alphaSd ** 2;
  const vb = prior.betaSd ** 2;
  const binLik = (al: number, be: number) => {
    let s = 0;
    for (let q = 0; q < n; q++) {
      const eta = al * theta[q] + be;
      s += y[q] * -log1pExp(-eta) + (1 - y[q]) * -log1pExp(eta);
    }
    return s;
  };
  const post = (al: number, be: number) =>
    binLik(al, be) - (al - prior.alphaMean) ** 2 / (2 * va) - (be - prior.betaMean) ** 2 / (2 * vb);
  let al = Math.max(0, prior.alphaMean);
  let be = prior.betaMean;
  let f = post(al, be);
  for (let it = 0; it < 100; it++) {
    let ga = -(al - prior.alphaMean) / va;
    let gb = -(be - prior.betaMean) / vb;
    let haa = -1 / va;
    let hab = 0;
    let hbb = -1 / vb;
    for (let q = 0; q < n; q++) {
      const s = 1 / (1 + Math.exp(-(al * theta[q] + be)));
      const r = y[q] - s;
      const w = s * (1 - s);
      ga += r * theta[q];
      gb += r;
      haa -= w * theta[q] * theta[q];
      hab -= w * theta[q];
      hbb -= w;
    }
    // Newton direction −H⁻¹g; on the bound α = 0 with the gradient pushing down, β alone.
    let da: number;
    let db: number;
    if (al <= 0 && ga <= 0) {
      da = 0;
      db = -gb / hbb;
    } else {
      const det = haa * hbb - hab * hab;
      da = -(hbb * ga - hab * gb) / det;
      db = -(-hab * ga + haa * gb) / det;
    }
    let t = 1;
    let fn = -Infinity;
    let an = al;
    let bn = be;
    for (let bt = 0; bt < 40; bt++) {
      an = Math.max(0, al + t * da);
      bn = be + t * db;
      fn = post(an, bn);
      if (fn >= f) break;
      t /= 2;
    }
    if (!(fn >= f)) break;
    const change = fn - f;
    al = an;
    be = bn;
    f = fn;
    if (change < 1e-10) break;
  }
  const logLik = binLik(al, be) + shares;
  return { key: k, alpha: al, beta: be, logLik, logPost: f + shares };
}

/**
 * The bank's prior on the key curve: each item fitted with its recorded key
 * under a weak prior, then the median and a robust spread (1.4826 × MAD, at
 * least `minSd`) of α and of β over items. Falls back to the weak prior with
 * fewer than `minItems` items (a handful says little about a bank).
 */
export function bankKeyPrior(
  items: { cells: KeyCells; key: number }[],
  minSd = 0.5,
  minItems = 20,
): KeyPrior {
  if (items.length < minItems) return WEAK_KEY_PRIOR;
  const al: number[] = [];
  const be: number[] = [];
  for (const { cells, key } of items) {
    const r = fitKeyCurve(cells, key, WEAK_KEY_PRIOR);
    al.push(r.alpha);
    be.push(r.beta);
  }
  const median = (x: number[]) => {
    const s = [...x].sort((u, v) => u - v);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const spread = (x: number[], m: number) =>
    Math.max(minSd, 1.4826 * median(x.map((v) => Math.abs(v - m))));
  const am = median(al);
  const bm = median(be);
  return {
    alphaMean: am,
    alphaSd: spread(al, am),
    betaMean: bm,
    betaSd: spread(be, bm),
    items: items.length,
  };
}

/** The key check of one item: each option's fit as the key, and the best challenger's gain. */
export interface KeyCheck {
  /** fits[k]: the key curve with option k as key. */
  fits: KeyFit[];
  /** The wrong option with the largest gain, or −1 when the item has one option. */
  best: number;
  /** logPost with `best` as key minus with the recorded key (nats; > 0 favours `best`). */
  gain: number;
}

/** Fit every option as the key and compare each with the recorded key `g`. */
export function checkKey(cells: KeyCells, g: number, prior: KeyPrior): KeyCheck {
  const fits = Array.from({ length: cells.K }, (_, k) => fitKeyCurve(cells, k, prior));
  let best = -1;
  let gain = -Infinity;
  for (let d = 0; d < cells.K; d++) {
    if (d === g) continue;
    const v = fits[d].logPost - fits[g].logPost;
    if (v > gain) {
      gain = v;
      best = d;
    }
  }
  return { fits, best, gain };
}
