/**
 * External validity of the ability scale (paper Table 2): Spearman ρ between
 * each fitted model's θ (and raw accuracy) and an external score such as
 * LMArena's text Elo, over the matched LLMs, with a bootstrap sd from
 * resampling the matched LLMs.
 */
import Papa from 'papaparse';
import type { FitJson } from '../fit/types';
import { createRng } from '../model/rng';
import { spearman } from '../stats/corr';
import { meanSdSample } from './common';
import type { NameMatch } from './names';

export interface ExternalScore {
  name: string;
  score: number;
}

function parseRows(text: string, what: string): string[][] {
  const res = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  if (res.data.length < 2)
    throw new Error(`${what}: expected a header row and at least one data row.`);
  return res.data.map((r) => r.map((c) => c.trim()));
}

/**
 * External scores from CSV text with a header row: `model,score`, or the
 * LMArena file (`rank,rank_stylectrl,model,arena_score,...`). The name column
 * is `nameColumn`, else 'model', else the first; the score column is
 * `scoreColumn`, else 'score', else 'arena_score', else the second. Rows
 * without a finite score are skipped. File order is kept.
 */
export function parseScores(
  text: string,
  opts: { scoreColumn?: string; nameColumn?: string; file?: string } = {},
): ExternalScore[] {
  const what = opts.file ?? 'scores';
  const [header, ...rows] = parseRows(text, what);
  const find = (name: string | undefined) => (name === undefined ? -1 : header.indexOf(name));
  const pick = (given: string | undefined, fallbacks: string[], dflt: number, role: string) => {
    if (given !== undefined) {
      const q = find(given);
      if (q < 0)
        throw new Error(`${what}: no ${role} column "${given}" (columns: ${header.join(', ')}).`);
      return q;
    }
    for (const f of fallbacks) if (find(f) >= 0) return find(f);
    if (dflt >= header.length) throw new Error(`${what}: needs a ${role} column.`);
    return dflt;
  };
  const nc = pick(opts.nameColumn, ['model', 'name'], 0, 'name');
  const sc = pick(opts.scoreColumn, ['score', 'arena_score'], nc === 0 ? 1 : 0, 'score');
  const out: ExternalScore[] = [];
  for (const r of rows) {
    const name = r[nc];
    const score = Number(r[sc]);
    if (name && r[sc] !== '' && Number.isFinite(score)) out.push({ name, score });
  }
  if (out.length === 0)
    throw new Error(`${what}: no rows with a name and a numeric ${header[sc]}.`);
  return out;
}

/** A name map from CSV text: a header row, then `our_name,their_name` per row. */
export function parseNameMap(text: string, file = 'map'): Map<string, string> {
  const [, ...rows] = parseRows(text, file);
  const map = new Map<string, string>();
  for (const r of rows) if (r[0] && r[1]) map.set(r[0], r[1]);
  return map;
}

export interface ExternalOptions {
  /** Bootstrap resamples of the matched LLMs (default 1000). */
  bootstrap?: number;
  seed?: number;
}

/** One measure's agreement with the external score. */
export interface ExternalRow {
  /** 'theta' for a fitted model's θ, 'accuracy' for raw accuracy. */
  measure: 'theta' | 'accuracy';
  /** The fitted model ('accuracy' for raw accuracy, taken from the first fit). */
  model: string;
  n: number;
  spearman: number;
  /** Sample sd of Spearman over bootstrap resamples (degenerate resamples skipped). */
  bootSd: number;
  bootLo: number;
  bootHi: number;
}

/** Spearman of each measure over resamples of the matched index set; the same resamples for every measure. */
export function bootstrapSpearman(
  measures: ArrayLike<number>[],
  external: ArrayLike<number>,
  B: number,
  seed: number,
): { spearman: number; sd: number; lo: number; hi: number }[] {
  const n = external.length;
  const rng = createRng(seed);
  const boots: number[][] = measures.map(() => []);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let b = 0; b < B; b++) {
    const idx = Array.from({ length: n }, () => rng.int(n));
    for (let q = 0; q < n; q++) y[q] = external[idx[q]];
    measures.forEach((m, r) => {
      for (let q = 0; q < n; q++) x[q] = m[idx[q]];
      const s = spearman(x, y);
      if (Number.isFinite(s)) boots[r].push(s);
    });
  }
  return measures.map((m, r) => {
    const sorted = [...boots[r]].sort((a, b) => a - b);
    const at = (p: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
    return {
      spearman: spearman(m, external),
      sd: meanSdSample(sorted).sd,
      lo: at(0.025),
      hi: at(0.975),
    };
  });
}

/**
 * Spearman ρ of θ (one row per fit) and of raw accuracy (from the first fit)
 * with the external score over the matched LLMs that every fit holds, with
 * bootstrap sd and a 95% percentile interval.
 */
export function externalValidity(
  fits: FitJson | FitJson[],
  scores: readonly ExternalScore[] | ReadonlyMap<string, number>,
  matches: readonly NameMatch[],
  opts: ExternalOptions = {},
): { rows: ExternalRow[]; used: NameMatch[] } {
  const list = Array.isArray(fits) ? fits : [fits];
  if (list.length === 0) throw new Error('externalValidity: no fits given.');
  const score =
    scores instanceof Map
      ? scores
      : new Map((scores as ExternalScore[]).map((s) => [s.name, s.score]));
  const byId = list.map((f) => new Map(f.llms.map((l) => [l.id, l])));
  const used = matches.filter((m) => score.has(m.theirs) && byId.every((b) => b.has(m.ours)));
  if (used.length < 3)
    throw new Error(`Only ${used.length} matched LLMs: a rank correlation needs at least 3.`);
  const ext = used.map((m) => score.get(m.theirs)!);
  const measures = [
    ...list.map((_, r) => used.map((m) => byId[r].get(m.ours)!.theta)),
    used.map((m) => byId[0].get(m.ours)!.accuracy),
  ];
  const stats = bootstrapSpearman(measures, ext, opts.bootstrap ?? 1000, opts.seed ?? 1);
  const rows: ExternalRow[] = stats.map((s, r) => ({
    measure: r < list.length ? 'theta' : 'accuracy',
    model: r < list.length ? list[r].model : 'accuracy',
    n: used.length,
    spearman: s.spearman,
    bootSd: s.sd,
    bootLo: s.lo,
    bootHi: s.hi,
  }));
  return { rows, used };
}
