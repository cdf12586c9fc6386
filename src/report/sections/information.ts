/** Section 5: information — binary vs wrong-answer per benchmark, informative distractors, test information with SE. */
import type { Dataset } from '../../core/data/types';
import { infoByBenchmark, type BenchmarkInfoRow } from '../../core/eval/info';
import { testInformation } from '../../core/fit/derive';
import { distractorRange } from '../../core/fit/info';
import type { FitJson } from '../../core/fit/types';
import { thetaGrid } from '../../core/model/itemfns';
import { isBinary } from '../../core/model/types';
import { figure, fmt, int, numCell, pct, section, table, textCell } from '../html';
import { infoBarsChart } from '../svg/infoBars';
import { testInfoChart } from '../svg/testInfo';

function reading(
  rows: BenchmarkInfoRow[],
  binary: boolean,
  grid: Float64Array,
  info: number[],
  range: [number, number],
): string {
  const all = rows[rows.length - 1];
  let peak = 0;
  info.forEach((v, q) => {
    if (v > info[peak]) peak = q;
  });
  const se = info[peak] > 0 ? 1 / Math.sqrt(info[peak]) : NaN;
  const where = `The test measures most precisely at θ = ${fmt(grid[peak], 1)} (information ${fmt(info[peak], 1)}, SE ${fmt(se, 3)}).`;
  if (binary)
    return `This is a binary model: it reads correctness only, so the wrong answer adds no information. Mean item information is ${fmt(all.infoBinary, 3)}. ${where}`;
  const per = rows
    .slice(0, -1)
    .map((r) => `${r.benchmark} ${fmt(r.gainPct, 0)}%`)
    .join(', ');
  return `Which wrong option an LLM picks adds ${fmt(all.gainPct, 0)}% to the information that correctness alone gives (mean item information ${fmt(all.infoBinary, 3)} binary, ${fmt(all.infoWrong, 3)} more from the wrong answer; by benchmark: ${per}). ${pct(all.shareWithInformative, 0)} of items have at least one informative distractor, a wrong option that is the most likely answer somewhere in the fitted LLMs' θ range (θ ${fmt(range[0], 2)} to ${fmt(range[1], 2)}; ${fmt(all.informativeDistractors, 2)} per item on average; the same count as section 4's flags and the app's Distractors tab). ${where}`;
}

export function informationSection(ds: Dataset, fit: FitJson): string {
  const rows = infoByBenchmark(fit);
  const binary = isBinary(fit.model);
  const grid = thetaGrid(-4, 4, 81);
  const info = testInformation(fit, ds, grid);
  const tbl = table(
    'Mean item information per benchmark (over the fitted θ)',
    [
      'benchmark',
      'items',
      'I binary',
      'I wrong',
      'I total',
      'gain',
      'informative distractors / item',
      'items with one',
    ],
    rows.map((r) => [
      textCell(r.benchmark),
      numCell(int(r.items)),
      numCell(fmt(r.infoBinary, 4)),
      numCell(fmt(r.infoWrong, 4)),
      numCell(fmt(r.infoTotal, 4)),
      numCell(Number.isFinite(r.gainPct) ? `${fmt(r.gainPct, 1)}%` : '—'),
      numCell(fmt(r.informativeDistractors, 2)),
      numCell(pct(r.shareWithInformative, 1)),
    ]),
  );
  const bars = binary
    ? ''
    : figure(
        infoBarsChart(
          rows
            .slice(0, -1)
            .map((r) => ({ benchmark: r.benchmark, binary: r.infoBinary, wrong: r.infoWrong })),
        ),
        'Mean item information by benchmark: from correctness (solid) and added by the wrong answer (hatched).',
      );
  const curve = figure(
    testInfoChart(grid, info),
    'Test information I(θ) of all items (solid) and the standard error 1/√I(θ) (dashed).',
  );
  return section(
    'information',
    '5. Information',
    reading(rows, binary, grid, info, distractorRange(fit)),
    `${bars}\n${tbl}\n${curve}`,
  );
}
