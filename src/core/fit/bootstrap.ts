/**
 * The item-bootstrap check of reported standard errors: fit once, refit on B
 * resamples of the items (drawn with replacement, duplicated ids made unique),
 * and compare each LLM's reported SE(θ_j) with the sd of θ_j over the refits.
 * Used by uncertainty.test.ts (simulated) and scripts/se-bootstrap.ts (real data).
 * Refit θ is aligned in sign with the full fit's (the standardisation fixes
 * shift and scale, not orientation; flips are counted and reported).
 */
import type { Dataset } from '../data/types';
import { subsetDataset } from '../data/subset';
import { createFusedEngine } from '../engines/fused';
import { createRng } from '../model/rng';
import { fitDatasetFull } from './fit';
import { pose } from './pose';
import { thetaSE } from './result';
import type { FitJson, FitSettings } from './types';
import { fitUncertainty } from './uncertainty/json';

export interface BootstrapReport {
  fit: FitJson;
  /** Reported SE(θ_j) of the full fit (fit.json's, with seMethod). */
  se: number[];
  /** The conditional SE (item parameters fixed) at the same point. */
  seConditional: number[];
  /** The item-clustered sandwich SE at the same point. */
  seSandwich: number[];
  /** sd of θ_j over the refits, each choosing its own prior strength as a user's fit does. */
  sd: number[];
  /** sd of θ_j over refits of the same resamples at the full fit's λ (`fixedStrength`). */
  sdFixed?: number[];
  /** The prior strength each refit chose. */
  lambdas: number[];
  flips: number;
  seconds: number;
}

/** Sums for the sd of θ over refits, each refit's sign aligned with the full fit's θ. */
class ThetaSpread {
  private readonly sum: Float64Array;
  private readonly sum2: Float64Array;
  private n = 0;
  flips = 0;
  constructor(private readonly theta0: number[]) {
    this.sum = new Float64Array(theta0.length);
    this.sum2 = new Float64Array(theta0.length);
  }
  add(fit: FitJson): void {
    const th = fit.llms.map((l) => l.theta);
    const dot = th.reduce((s, t, j) => s + t * this.theta0[j], 0);
    const sign = dot < 0 ? -1 : 1;
    if (sign < 0) this.flips++;
    th.forEach((t, j) => {
      this.sum[j] += sign * t;
      this.sum2[j] += t * t;
    });
    this.n++;
  }
  sd(): number[] {
    const n = this.n;
    return Array.from(this.sum, (s, j) =>
      Math.sqrt(Math.max(0, (this.sum2[j] - (s * s) / n) / (n - 1))),
    );
  }
}

/** Item resample: indices drawn with replacement, ids suffixed to stay unique. */
export function resampleItems(ds: Dataset, seed: number): Dataset {
  const rng = createRng(seed);
  const idx = Array.from({ length: ds.I }, () => rng.int(ds.I));
  const out = subsetDataset(ds, undefined, idx);
  out.itemIds = idx.map((i, t) => `${ds.itemIds[i]}#${t}`);
  return out;
}

/**
 * The same cells under other names and in another order: LLMs and items
 * shuffled by `seed`, every id replaced by a made-up one (`m<n>`, `q<n>`, in
 * neither the old order nor the new). `llms[a]` and `items[b]` are the
 * original indices of the new LLM a and item b. For the equal-data, equal-fit checks.
 */
export function renameAndShuffle(
  ds: Dataset,
  seed: number,
): { data: Dataset; llms: number[]; items: number[] } {
  const rng = createRng(seed);
  const shuffle = (n: number) => {
    const p = Array.from({ length: n }, (_, i) => i);
    for (let a = n - 1; a > 0; a--) {
      const b = rng.int(a + 1);
      [p[a], p[b]] = [p[b], p[a]];
    }
    return p;
  };
  const js = shuffle(ds.J);
  const is = shuffle(ds.I);
  const out = subsetDataset(ds, js, is);
  const names = (n: number, tag: string) => shuffle(n).map((r) => `${tag}${r * 7 + 3}`);
  out.llmIds = names(ds.J, 'm');
  out.itemIds = names(ds.I, 'q');
  return { data: out, llms: js, items: is };
}

export async function itemBootstrap(
  ds: Dataset,
  settings: Partial<FitSettings>,
  B: number,
  seed = 1,
  o: {
    onRep?: (b: number) => void;
    /** Also refit every resample at the full fit's λ (BootstrapReport.sdFixed): λ's share of the spread. */
    fixedStrength?: boolean;
  } = {},
): Promise<BootstrapReport> {
  const t0 = performance.now();
  const full = await fitDatasetFull(ds, settings);
  const posed = pose(ds, { ...full.json.settings });
  const nat = new Float64Array(posed.P.natSize);
  posed.P.toNatural(full.x, nat);
  const engine = createFusedEngine(posed.problem);
  const seConditional = await thetaSE(engine, nat, ds.J, posed.problem.layout.theta);
  engine.dispose();
  for (const p of full.json.priors ?? []) posed.P.priors[p.group] = { sd: p.sd, mean: p.mean };
  const sw = fitUncertainty(posed.problem, nat, full.json.mode, posed.P.priorPrecision(), {
    estimator: 'sandwich',
  });
  const seSandwich = sw.res ? Array.from(sw.res.thetaSE) : seConditional.map(() => NaN);
  const theta0 = full.json.llms.map((l) => l.theta);
  const free = new ThetaSpread(theta0);
  const fixed = new ThetaSpread(theta0);
  const lambdas: number[] = [];
  for (let b = 0; b < B; b++) {
    const data = resampleItems(ds, seed * 7919 + b);
    const fit = (await fitDatasetFull(data, settings)).json;
    free.add(fit);
    lambdas.push(fit.settings.priorStrength ?? NaN);
    if (o.fixedStrength)
      fixed.add(
        (
          await fitDatasetFull(data, {
            ...settings,
            priorStrength: full.json.settings.priorStrength,
          })
        ).json,
      );
    o.onRep?.(b);
  }
  return {
    fit: full.json,
    se: full.json.llms.map((l) => l.thetaSE),
    seConditional,
    seSandwich,
    sd: free.sd(),
    sdFixed: o.fixedStrength ? fixed.sd() : undefined,
    lambdas,
    flips: free.flips,
    seconds: (performance.now() - t0) / 1000,
  };
}

export function median(x: number[]): number {
  const s = x.filter(Number.isFinite).sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median and worst (farthest from 1 in log) of se_j / sd_j. */
export function ratioSummary(se: number[], sd: number[]): { median: number; worst: number } {
  const r = se.map((v, j) => v / sd[j]);
  let worst = 1;
  for (const v of r) if (Math.abs(Math.log(v)) > Math.abs(Math.log(worst))) worst = v;
  return { median: median(r), worst };
}
