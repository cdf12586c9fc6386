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
import { fitUncertainty } from './uncertaintyJson';

export interface BootstrapReport {
  fit: FitJson;
  /** Reported SE(θ_j) of the full fit (fit.json's, with seMethod). */
  se: number[];
  /** The conditional SE (item parameters fixed) at the same point. */
  seConditional: number[];
  /** The item-clustered sandwich SE at the same point. */
  seSandwich: number[];
  /** sd of θ_j over the refits. */
  sd: number[];
  flips: number;
  seconds: number;
}

/** Item resample: indices drawn with replacement, ids suffixed to stay unique. */
export function resampleItems(ds: Dataset, seed: number): Dataset {
  const rng = createRng(seed);
  const idx = Array.from({ length: ds.I }, () => rng.int(ds.I));
  const out = subsetDataset(ds, undefined, idx);
  out.itemIds = idx.map((i, t) => `${ds.itemIds[i]}#${t}`);
  return out;
}

export async function itemBootstrap(
  ds: Dataset,
  settings: Partial<FitSettings>,
  B: number,
  seed = 1,
  onRep?: (b: number) => void,
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
  const sum = new Float64Array(ds.J);
  const sum2 = new Float64Array(ds.J);
  let flips = 0;
  for (let b = 0; b < B; b++) {
    const fit = await fitDatasetFull(resampleItems(ds, seed * 7919 + b), settings);
    const th = fit.json.llms.map((l) => l.theta);
    let dot = 0;
    for (let j = 0; j < ds.J; j++) dot += th[j] * theta0[j];
    const sign = dot < 0 ? -1 : 1;
    if (sign < 0) flips++;
    for (let j = 0; j < ds.J; j++) {
      sum[j] += sign * th[j];
      sum2[j] += th[j] * th[j];
    }
    onRep?.(b);
  }
  const sd = Array.from(sum, (s, j) => Math.sqrt(Math.max(0, (sum2[j] - (s * s) / B) / (B - 1))));
  return {
    fit: full.json,
    se: full.json.llms.map((l) => l.thetaSE),
    seConditional,
    seSandwich,
    sd,
    flips,
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
