/**
 * Item-split validity of θ (issue 31, "θ a user can believe"). For N random
 * halves A | B of the items, every model is fitted on A and on B (the CLI's
 * default settings: `fitDataset` with only the model changed), and each
 * direction (fit on A, judged on B; and B on A) is scored:
 *   ρ_acc   Spearman(θ from the fitted half, the LLMs' accuracy on the other half)
 *   ρ_pkey  Spearman(θ, mean observed P(key) on the other half)
 *   ρ_half  Spearman(θ from A, θ from B): split-half agreement of the ranking
 *   xLL     held-out loss on the other half's cells: the other half's item
 *           parameters with this half's LLM parameters (θ, s, δ, ρ), binary
 *           log-loss per cell (comparable across nominal and binary models);
 *           xLLopt the option log-loss (nominal models only)
 *   ρ_true  (simulated data) Spearman(θ, the true ability)
 * A split's figure is the mean of its two directions; the table gives the
 * mean and sd over splits. Baselines: the LLMs' accuracy and mean P(key) on
 * the fitted half. Readouts of the llmnrm fit besides θ: s·θ, the model's
 * expected accuracy on the fitted half (mean fitted P(key)), and θ rescored
 * from correctness only and from wrong answers only against the fitted bank.
 *
 *   npx tsx bench/validity.ts [--splits N] [--data econ|reading|pooled|sim|path.csv]
 *        [--models llmnrm,no-sharpness,...] [--candidates] [--seed S] [--one-way] [--cv]
 *        [--max-seconds T]
 *
 * --candidates adds candidate fixes: llmnrm with the log s prior fixed at
 * sd 0.1 and 0.05 (`--prior logS=…`). --cv instead gives each variant's held-out
 * cell log-loss (evaluate cv, 5 cell folds) and the prior-strength search's
 * held-out loss at its chosen λ. Not run by the tests (minutes).
 */
import { loadDatasetFromPaths } from '../src/node/files';
import { completeDataset } from '../src/core/data/complete';
import { subsetDataset } from '../src/core/data/subset';
import type { Dataset } from '../src/core/data/types';
import { fitDataset } from '../src/core/fit/fit';
import { scoreLlms } from '../src/core/fit/score';
import type { FitJson, FitSettings } from '../src/core/fit/types';
import { crossValidate } from '../src/core/eval/cv';
import { evaluateCells } from '../src/core/eval/metrics';
import { distractorShares, predictorFromFit } from '../src/core/eval/predict';
import { accuracyByLlm } from '../src/core/model/cells';
import { createRng, type Rng } from '../src/core/model/rng';
import { isBinary, type ModelType } from '../src/core/model/types';
import { spearman } from '../src/core/stats/corr';

// ---------------------------------------------------------------- arguments
const argv = process.argv.slice(2);
const opt = (name: string, dflt?: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const SPLITS = Number(opt('splits', '20'));
const DATA = opt('data', 'econ')!;
const SEED = Number(opt('seed', '1'));
const ONE_WAY = argv.includes('--one-way');
/** Start no split after this many seconds (the table covers the splits done). */
const MAX_SECONDS = Number(opt('max-seconds', 'Infinity'));
const MODELS = opt('models', 'llmnrm,no-sharpness,no-position,no-fallback,nrm-soft,2pl')!.split(
  ',',
) as ModelType[];

interface Variant {
  name: string;
  model: ModelType;
  settings: Partial<FitSettings>;
}
const VARIANTS: Variant[] = MODELS.map((m) => ({ name: m, model: m, settings: { model: m } }));
if (argv.includes('--candidates'))
  for (const sd of [0.1, 0.05])
    VARIANTS.push({
      name: `llmnrm logS sd ${sd}`,
      model: 'llmnrm',
      settings: { model: 'llmnrm', prior: { logS: sd } },
    });

// ---------------------------------------------------------------- data
const DEMO = 'public/demo/econ-reading.wide.csv';

/**
 * The simulator, with its own formulas (not the LLM-NRM's): J LLMs of true
 * ability η_j ~ N(0, 1) and a confidence (inverse temperature) τ_j =
 * exp(0.5 z_j) drawn independently of η. Item i has a difficulty b_i ~ N(0, 1)
 * and discrimination α_i ~ logN(0, 0.3²); each distractor k has an appeal
 * e_ik ~ N(0, 1) and a "misconception" pull m_ik ~ N(0, 0.7²) that weaker LLMs
 * follow more. LLM j's logits on item i (K = 4) are
 *   key:        τ_j [α_i (η_j − b_i)] + ε
 *   distractor: τ_j [0.5 e_ik − m_ik η_j] + π_jk + ε
 * with a positional bias π_jk ~ N(0, 0.3²) (outside τ) and cell noise ε ~
 * N(0, 0.5²), and the observed distribution is their softmax. Accuracy is thus
 * driven by η, sharpness by τ alone: a valid θ ranks by η, not by τ.
 */
function simulate(seed: number, J = 18, I = 160): { ds: Dataset; eta: number[] } {
  const rng: Rng = createRng(seed);
  const K = 4;
  const eta = Array.from({ length: J }, () => rng.normal());
  const tau = Array.from({ length: J }, () => Math.exp(0.5 * rng.normal()));
  const pos = Array.from({ length: J * K }, () => 0.3 * rng.normal());
  const obs = new Float32Array(J * I * K);
  const key = new Uint8Array(I);
  const z = new Float64Array(K);
  for (let i = 0; i < I; i++) {
    key[i] = rng.int(K);
    const b = rng.normal();
    const alpha = Math.exp(0.3 * rng.normal());
    const e = Array.from({ length: K }, () => rng.normal());
    const m = Array.from({ length: K }, () => 0.7 * rng.normal());
    for (let j = 0; j < J; j++) {
      let mx = -Infinity;
      for (let k = 0; k < K; k++) {
        const core = k === key[i] ? alpha * (eta[j] - b) : 0.5 * e[k] - m[k] * eta[j];
        z[k] = tau[j] * core + (k === key[i] ? 0 : pos[j * K + k]) + 0.5 * rng.normal();
        mx = Math.max(mx, z[k]);
      }
      let s = 0;
      for (let k = 0; k < K; k++) s += z[k] = Math.exp(z[k] - mx);
      for (let k = 0; k < K; k++) obs[(j * I + i) * K + k] = z[k] / s;
    }
  }
  const ds = completeDataset(
    obs,
    key,
    { J, I, K },
    {
      llmIds: Array.from({ length: J }, (_, j) => `sim-${String(j + 1).padStart(2, '0')}`),
      itemIds: Array.from({ length: I }, (_, i) => `item-${i + 1}`),
    },
  );
  return { ds, eta };
}

async function dataset(name: string): Promise<{ ds: Dataset; eta?: number[] }> {
  if (name === 'sim') return simulate(31);
  if (!['econ', 'reading', 'pooled'].includes(name))
    return { ds: await loadDatasetFromPaths([name]) };
  const ds = await loadDatasetFromPaths([DEMO]);
  if (name === 'pooled') return { ds };
  const items = ds.benchmarks.flatMap((b, i) => (b.includes(name) ? [i] : []));
  return { ds: subsetDataset(ds, undefined, items) };
}

// ---------------------------------------------------------------- measures
function meanPKey(ds: Dataset): number[] {
  return Array.from({ length: ds.J }, (_, j) => {
    let s = 0;
    let n = 0;
    for (let i = 0; i < ds.I; i++) {
      if (!ds.observed[j * ds.I + i]) continue;
      s += ds.obs[(j * ds.I + i) * ds.Kmax + ds.key[i]];
      n++;
    }
    return s / n;
  });
}

function cellsOf(ds: Dataset): number[] {
  const out: number[] = [];
  for (let c = 0; c < ds.J * ds.I; c++) if (ds.observed[c]) out.push(c);
  return out;
}

/** Scores of one direction: θ-like readouts from the fitted half, judged on the other. */
interface Direction {
  readouts: Map<string, number[]>;
  xLL: Map<string, number>;
  xLLopt: Map<string, number>;
}

interface Half {
  ds: Dataset;
  acc: number[];
  pkey: number[];
  fits: Map<string, FitJson>;
}

const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
const sd = (x: number[]) => {
  const m = mean(x);
  return Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0) / Math.max(1, x.length - 1));
};

/** θ-like readouts of the fits on one half (names: variant or "llmnrm: readout"). */
async function readouts(h: Half): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  out.set('accuracy (fitted half)', h.acc);
  out.set('mean P(key) (fitted half)', h.pkey);
  for (const v of VARIANTS) {
    const fit = h.fits.get(v.name)!;
    const byId = new Map(fit.llms.map((l) => [l.id, l]));
    const llms = h.ds.llmIds.map((id) => byId.get(id)!);
    out.set(
      v.name,
      llms.map((l) => l.theta),
    );
    if (v.name !== 'llmnrm') continue;
    out.set(
      'llmnrm: s·θ',
      llms.map((l) => l.s * l.theta),
    );
    const pred = predictorFromFit(fit, h.ds);
    out.set(
      'llmnrm: expected accuracy',
      h.ds.llmIds.map((_, j) => {
        let s = 0;
        for (let i = 0; i < h.ds.I; i++) s += pred.pKey(j, i);
        return s / h.ds.I;
      }),
    );
    for (const ch of ['binary', 'wrong'] as const) {
      const sc = await scoreLlms(h.ds, fit, { channel: ch });
      out.set(
        `llmnrm: θ from ${ch === 'binary' ? 'correctness' : 'wrong answers'}`,
        sc.llms.map((l) => l.theta),
      );
    }
  }
  return out;
}

/** Held-out loss on `to`'s cells: `to`'s item parameters, `from`'s LLM parameters. */
function crossLoss(from: Half, to: Half, dir: Direction) {
  const cells = cellsOf(to.ds);
  const shares = distractorShares(to.ds);
  for (const v of VARIANTS) {
    const f = from.fits.get(v.name)!;
    const t = to.fits.get(v.name)!;
    const pred = predictorFromFit(t, to.ds, { llms: f.llms, distractors: shares });
    const m = evaluateCells(pred, to.ds, cells);
    dir.xLL.set(v.name, m.binaryLogLoss);
    if (!isBinary(v.model)) dir.xLLopt.set(v.name, m.optionLogLoss);
  }
}

// ---------------------------------------------------------------- run
const { ds, eta } = await dataset(DATA);
if (argv.includes('--cv')) {
  // Held-out cell log-loss of every variant (evaluate cv: 5 cell folds, seed 1),
  // and the prior-strength search's own held-out loss at the chosen λ.
  console.log(`held-out cells: ${DATA} (${ds.J} × ${ds.I}), 5 folds`);
  console.log(
    '| variant | option log-loss | binary log-loss | λ search held-out CE/cell (full fit) | λ |',
  );
  console.log('|---|---|---|---|---|');
  for (const v of VARIANTS) {
    const cv = await crossValidate(ds, { models: [v.model], fitSettings: v.settings, folds: 5 });
    const full = await fitDataset(ds, v.settings);
    const best = full.priorSelection?.trials.find((t) => t.lambda === full.priorSelection?.lambda);
    const r = cv.summary[0];
    const ms = (k: string) =>
      `${Number(r[`${k}_mean`]).toFixed(4)} ± ${Number(r[`${k}_sd`]).toFixed(4)}`;
    console.log(
      `| ${v.name} | ${ms('optionLogLoss')} | ${ms('binaryLogLoss')} | ${best ? best.heldOutLoss.toFixed(4) : '—'} | ${full.settings.priorStrength ?? '—'} |`,
    );
  }
  process.exit(0);
}
const rng = createRng(1000 + SEED);
console.log(
  `item-split validity: ${DATA} (${ds.J} LLMs × ${ds.I} items), ${SPLITS} splits, ` +
    `${ONE_WAY ? 'one direction' : 'both directions'}; variants ${VARIANTS.map((v) => v.name).join(', ')}`,
);
type Row = {
  acc: number[];
  pkey: number[];
  half: number[];
  truth: number[];
  xLL: number[];
  xLLopt: number[];
  flips: number;
};
const rows = new Map<string, Row>();
const row = (k: string) => {
  if (!rows.has(k))
    rows.set(k, { acc: [], pkey: [], half: [], truth: [], xLL: [], xLLopt: [], flips: 0 });
  return rows.get(k)!;
};
const perSplitTheta: { split: number; name: string; a: number[]; b: number[] }[] = [];
const t0 = performance.now();
let done = 0;
for (let s = 0; s < SPLITS; s++) {
  if (performance.now() - t0 > MAX_SECONDS * 1000) break;
  done++;
  const perm = Array.from({ length: ds.I }, (_, i) => i);
  for (let i = perm.length - 1; i > 0; i--) {
    const r = rng.int(i + 1);
    [perm[i], perm[r]] = [perm[r], perm[i]];
  }
  const cut = Math.floor(ds.I / 2);
  const halves: Half[] = [perm.slice(0, cut), perm.slice(cut)].map((idx) => {
    const sub = subsetDataset(
      ds,
      undefined,
      idx.sort((a, b) => a - b),
    );
    return { ds: sub, acc: Array.from(accuracyByLlm(sub)), pkey: meanPKey(sub), fits: new Map() };
  });
  const fitHalves = ONE_WAY ? [halves[0]] : halves;
  for (const h of fitHalves)
    for (const v of VARIANTS) h.fits.set(v.name, await fitDataset(h.ds, v.settings));
  if (ONE_WAY) for (const v of VARIANTS) halves[1].fits.set(v.name, halves[0].fits.get(v.name)!);
  const dirs: { from: Half; to: Half; dir: Direction }[] = [];
  for (const [from, to] of ONE_WAY ? [[halves[0], halves[1]]] : [halves, [...halves].reverse()]) {
    const dir: Direction = { readouts: await readouts(from), xLL: new Map(), xLLopt: new Map() };
    if (!ONE_WAY) crossLoss(from, to, dir);
    dirs.push({ from, to, dir });
  }
  for (const name of dirs[0].dir.readouts.keys()) {
    const r = row(name);
    const pick = (f: (d: (typeof dirs)[number], x: number[]) => number) =>
      mean(dirs.map((d) => f(d, d.dir.readouts.get(name)!)));
    r.acc.push(pick((d, x) => spearman(x, d.to.acc)));
    r.pkey.push(pick((d, x) => spearman(x, d.to.pkey)));
    if (eta) r.truth.push(pick((_, x) => spearman(x, eta)));
    if (dirs.some((d) => spearman(d.dir.readouts.get(name)!, d.from.acc) < 0)) r.flips++;
    if (dirs.length === 2) {
      const a = dirs[0].dir.readouts.get(name)!;
      const b = dirs[1].dir.readouts.get(name)!;
      r.half.push(spearman(a, b));
      perSplitTheta.push({ split: s, name, a, b });
      const xl = dirs.map((d) => d.dir.xLL.get(name)).filter((v) => v !== undefined);
      if (xl.length) r.xLL.push(mean(xl));
      const xo = dirs.map((d) => d.dir.xLLopt.get(name)).filter((v) => v !== undefined);
      if (xo.length) r.xLLopt.push(mean(xo));
    }
  }
  const r = rows.get('llmnrm')!;
  const b = rows.get('accuracy (fitted half)')!;
  process.stderr.write(
    `split ${s + 1}/${SPLITS}: ρ_acc llmnrm ${r.acc.at(-1)!.toFixed(3)}, accuracy ${b.acc.at(-1)!.toFixed(3)}` +
      `  (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`,
  );
}

const f3 = (x: number[]) => (x.length ? `${mean(x).toFixed(3)} ± ${sd(x).toFixed(3)}` : '—');
const f4 = (x: number[]) => (x.length ? `${mean(x).toFixed(4)} ± ${sd(x).toFixed(4)}` : '—');
const head = ['θ from', 'ρ_acc (other half)', 'ρ_pkey (other half)', 'ρ_half (A vs B)'];
if (eta) head.push('ρ_true (η)');
head.push('xLL binary', 'xLL option', 'sign flips');
console.log(`\n| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const [name, r] of rows) {
  const cells = [name, f3(r.acc), f3(r.pkey), f3(r.half)];
  if (eta) cells.push(f3(r.truth));
  cells.push(f4(r.xLL), f4(r.xLLopt), String(r.flips));
  console.log(`| ${cells.join(' | ')} |`);
}
console.log(
  `\nmean ± sd over ${done} splits (${ONE_WAY ? 'one direction each' : 'each split: mean of its two directions'}); ` +
    `${((performance.now() - t0) / 1000).toFixed(0)} s`,
);
// Which LLMs move most between llmnrm's θ and accuracy on the other half (first split).
const first = perSplitTheta.filter((p) => p.split === 0 && p.name === 'llmnrm')[0];
if (first) {
  const ranksOf = (x: number[]) => {
    const o = x.map((v, i) => [v, i] as const).sort((p, q) => q[0] - p[0]);
    const r = new Array<number>(x.length);
    o.forEach(([, i], k) => (r[i] = k + 1));
    return r;
  };
  const rt = ranksOf(first.a);
  const rb = ranksOf(first.b);
  console.log(
    `split 1, llmnrm rank on A vs on B: ` +
      ds.llmIds
        .map((id, j) => [id, rt[j], rb[j]] as const)
        .filter(([, a, b]) => Math.abs(a - b) >= 4)
        .map(([id, a, b]) => `${id} ${a}→${b}`)
        .join(', '),
  );
}
