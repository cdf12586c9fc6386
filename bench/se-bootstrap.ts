/**
 * Item-bootstrap check of the reported standard errors (issue 10, item 4):
 *   npx tsx bench/se-bootstrap.ts [file|sim] [B] [settings as JSON, e.g. '{"gate":"eq10"}']
 * Fits the data with the default settings, refits B item-bootstrap resamples
 * and prints, per LLM and summarised, SE(θ)/sd(θ over refits) for the
 * conditional SE (items fixed, the old report) and the Laplace SE (fit.json).
 * Each refit chooses its own prior strength λ, as a user's fit does; every
 * resample is refitted at the full fit's λ too, so λ's share of the spread,
 * √(sd² − sd_fixed²), is printed (issue 27).
 * Default file: public/demo/econ-reading.wide.csv (18 LLMs × 345 items); sim: 20 × 120
 * simulated, Dirichlet noise (concentration 20), the gate shut (fits converge in seconds);
 * sim-onehot: the same, each cell then one categorical draw (one-hot), the data
 * the model's likelihood describes.
 * Not run by the tests (minutes of CPU).
 */
import { loadDatasetFromPaths } from '../src/node/files';
import { itemBootstrap, median, ratioSummary } from '../src/core/fit/bootstrap';
import type { FitSettings } from '../src/core/fit/types';
import { simulateNominal } from '../src/core/model/simulate';

const [what = 'public/demo/econ-reading.wide.csv', bArg = '40', json = '{}'] =
  process.argv.slice(2);
const settings = JSON.parse(json) as Partial<FitSettings>;
const B = Number(bArg);
const ds =
  what === 'sim' || what === 'sim-onehot'
    ? simulateNominal({
        J: 20,
        I: 120,
        seed: 5,
        concentration: 20,
        gate: 'shut',
        oneHot: what === 'sim-onehot',
      }).data
    : await loadDatasetFromPaths([what]);
process.stderr.write(`${what}: ${ds.J} LLMs × ${ds.I} items, B = ${B}, settings ${json}\n`);
const rep = await itemBootstrap(ds, settings, B, 1, {
  onRep: (b) => process.stderr.write(`\rrefit ${b + 1}/${B}`),
  fixedStrength: true,
});
process.stderr.write('\n');
const fmt = (v: number) => v.toFixed(3);
console.log(`seMethod: ${rep.fit.seMethod}`);
console.log(
  `converged: ${rep.fit.converged}; sign flips among refits: ${rep.flips}; ${rep.seconds.toFixed(0)} s`,
);
console.log('llm\ttheta\tsd_boot\tse_cond\tse_new\tse_sand\tratio_cond\tratio_new\tratio_sand');
rep.fit.llms.forEach((l, j) =>
  console.log(
    [
      l.id,
      fmt(l.theta),
      fmt(rep.sd[j]),
      fmt(rep.seConditional[j]),
      fmt(rep.se[j]),
      fmt(rep.seSandwich[j]),
      fmt(rep.seConditional[j] / rep.sd[j]),
      fmt(rep.se[j] / rep.sd[j]),
      fmt(rep.seSandwich[j] / rep.sd[j]),
    ].join('\t'),
  ),
);
const o = ratioSummary(rep.seConditional, rep.sd);
const n = ratioSummary(rep.se, rep.sd);
console.log(`conditional SE / bootstrap sd: median ${fmt(o.median)}, worst ${fmt(o.worst)}`);
console.log(`Laplace SE / bootstrap sd:     median ${fmt(n.median)}, worst ${fmt(n.worst)}`);
const w = ratioSummary(rep.seSandwich, rep.sd);
console.log(`sandwich SE / bootstrap sd:    median ${fmt(w.median)}, worst ${fmt(w.worst)}`);
const fixed = rep.sdFixed!;
const within = (se: number[], sd: number[]) =>
  se.filter((v, j) => v / sd[j] >= 0.5 && v / sd[j] <= 2).length / se.length;
const f = ratioSummary(rep.se, fixed);
console.log(`Laplace SE / sd at fixed λ:    median ${fmt(f.median)}, worst ${fmt(f.worst)}`);
console.log(
  `share of LLMs with Laplace SE / sd in [0.5, 2]: ${fmt(within(rep.se, rep.sd))} (λ re-chosen), ${fmt(within(rep.se, fixed))} (λ fixed)`,
);
const lam = [...rep.lambdas].sort((a, b) => a - b);
console.log(
  `λ: full fit ${rep.fit.settings.priorStrength}; refits ${lam[0]}–${lam[lam.length - 1]} (median ${median(lam)})`,
);
const share = rep.sd.map((v, j) => Math.sqrt(Math.max(0, v * v - fixed[j] * fixed[j])) / v);
console.log(
  `λ's share of the bootstrap sd, √(sd² − sd_fixed²)/sd: median ${fmt(median(share))}, max ${fmt(Math.max(...share))}`,
);
