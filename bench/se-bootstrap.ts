/**
 * Item-bootstrap check of the reported standard errors (issue 10, item 4):
 *   npx tsx bench/se-bootstrap.ts [file|sim] [B] [estimator]
 * Fits the data with the default settings, refits B item-bootstrap resamples
 * and prints, per LLM and summarised, SE(θ)/sd(θ over refits) for the
 * conditional SE (items fixed, the old report) and the Laplace SE (fit.json).
 * Default file: public/demo/econ-reading.wide.csv (18 LLMs × 345 items).
 * Not run by the tests (minutes of CPU).
 */
import { loadDatasetFromPaths } from '../src/core/data/node';
import { itemBootstrap, ratioSummary } from '../src/core/fit/bootstrap';
import { simulateNominal } from '../src/core/model/simulate';

const [what = 'public/demo/econ-reading.wide.csv', bArg = '40'] = process.argv.slice(2);
const B = Number(bArg);
const ds =
  what === 'sim'
    ? simulateNominal({ J: 30, I: 120, seed: 5, concentration: 20 }).data
    : await loadDatasetFromPaths([what]);
process.stderr.write(`${what}: ${ds.J} LLMs × ${ds.I} items, B = ${B}\n`);
const rep = await itemBootstrap(ds, {}, B, 1, (b) => process.stderr.write(`\rrefit ${b + 1}/${B}`));
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
