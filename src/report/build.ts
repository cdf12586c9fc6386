/**
 * The benchmark audit report: one self-contained HTML file (inline SVG and
 * CSS, no script, no request) built from a fit and its data set. The CLI
 * (`llm-nrm report`) and the worker (`report`, the app's "Download report")
 * both call `buildReport`, so the same inputs give the same bytes, apart from
 * the one date line. Every number comes from the core; this layer arranges and
 * words them.
 */
import { flagItems } from '../core/bank/flags';
import type { FitJson } from '../core/fit/types';
import type { Dataset } from '../core/data/types';
import { version } from '../../package.json';
import { REPORT_BUDGETS } from './caps';
import { esc, glossary } from './html';
import { REPORT_CSS } from './style';
import { cvSection } from './sections/cv';
import { dataSection } from './sections/data';
import { fitSection } from './sections/fit';
import { flaggedSection } from './sections/flagged';
import { informationSection } from './sections/information';
import { psychSection } from './sections/psych';
import { rankingSection } from './sections/ranking';
import { appendixSection, subsetSection, subsets } from './sections/subset';
import type { ReportInput, ReportOptions } from './types';
import {
  DIFFICULTY_DEN_MIN,
  DIFFICULTY_SE_MAX,
  DIFFICULTY_UNDEFINED,
} from '../core/model/difficulty';

/** The sections' ids and titles, in order: the contents list and the tests read them. */
export const REPORT_SECTIONS = [
  ['data', '1. The data'],
  ['fit', '2. The fit'],
  ['ranking', '3. LLM ranking'],
  ['flagged', '4. Items that need a look'],
  ['information', '5. Information'],
  ['psychometrics', '6. Psychometric tables'],
  ['subset', '7. A smaller benchmark'],
  ['cv', '8. Held-out model comparison'],
  ['appendix', 'Appendix: the subsets\u2019 items'],
] as const;

/** The symbols, explained once at the top. */
const SYMBOLS: [string, string][] = [
  [
    'θ (theta)',
    'an LLM’s ability on the benchmark, standardised: 0 is the mean LLM, 1 is one standard deviation above it.',
  ],
  ['SE', 'standard error: how far an estimate may be off; θ ± 1.96·SE is its 95% interval.'],
  ['s', 'sharpness: how peaked an LLM’s answer distribution is (1 = typical).'],
  [
    'δ (delta)',
    'position bias: an LLM’s extra log-odds for an option position (A, B, …) whatever its content.',
  ],
  [
    'ρ (rho), G',
    'fallback: the answer position an LLM falls back to when it does not know, and the gate G (0 to 1) that says how much it does.',
  ],
  [
    'a, c',
    'an option’s slope and intercept in θ: the key’s slope is larger than the distractors’ on a good item.',
  ],
  [
    'b̃',
    `an item’s difficulty: the θ at which the key becomes the likeliest answer; ${DIFFICULTY_UNDEFINED} where the key’s slope is within ${DIFFICULTY_DEN_MIN} of the distractors’ weighted slope or its SE exceeds ${DIFFICULTY_SE_MAX} (the θ range −4…4).`,
  ],
  ['I(θ)', 'Fisher information: how precisely the items measure θ near a value; SE = 1/√I.'],
  [
    'I binary, I wrong',
    'information from correctness alone, and the extra information carried by which wrong option is chosen.',
  ],
  [
    'λ',
    'prior strength: how strongly parameters are pulled toward typical values, chosen by held-out loss.',
  ],
  [
    'infit, outfit',
    'mean-square fit of observed to predicted answers (1 is perfect; above 1.3 is noisier than predicted, below 0.7 more deterministic).',
  ],
  ['τ (Kendall)', 'rank agreement of two orderings: 1 is identical, 0 unrelated.'],
];

function header(ds: Dataset, fit: FitJson, date: string): string {
  const toc = REPORT_SECTIONS.map(
    ([id, title]) => `<li><a href="#${id}">${esc(title)}</a></li>`,
  ).join('');
  return `<header>\n<h1>Benchmark audit: ${ds.J} LLMs × ${ds.I} items</h1>\n<p>What the ${esc(fit.model)} fit found on this benchmark: the data, the fit, the LLM ranking, the items that need a look, where the items measure, psychometric checks and a smaller benchmark. Made by the LLM-NRM workbench ${esc(version)}.</p>\n<p class="date">Generated ${esc(date)}</p>\n<h2 id="symbols">Symbols</h2>\n${glossary(SYMBOLS)}\n<nav aria-label="Contents"><h2 id="contents">Contents</h2><ol>${toc}</ol></nav>\n</header>`;
}

/** The report as one HTML string. Throws if `fit` is not a fit of `ds`. */
export async function buildReport(input: ReportInput, opts: ReportOptions): Promise<string> {
  const { ds, fit } = input;
  if (
    fit.items.length !== ds.I ||
    fit.llms.length !== ds.J ||
    fit.items.some((it, i) => it.id !== ds.itemIds[i]) ||
    fit.llms.some((l, j) => l.id !== ds.llmIds[j])
  )
    throw new Error(
      'The fit is not of this data set: its items or LLMs differ from the data’s (same ids, same order).',
    );
  const total = REPORT_SECTIONS.length;
  let done = 0;
  const step = async <T>(stage: string, f: () => T | Promise<T>): Promise<T> => {
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
    opts.onProgress?.({ done, total, stage });
    const r = await f();
    done++;
    return r;
  };
  const parts: string[] = [];
  parts.push(await step('the data', () => dataSection(ds)));
  parts.push(await step('the fit', () => fitSection(ds, fit)));
  parts.push(await step('the ranking', () => rankingSection(fit)));
  parts.push(await step('flagged items', () => flaggedSection(ds, fit, flagItems(fit, ds))));
  parts.push(await step('information', () => informationSection(ds, fit)));
  parts.push(await step('psychometric tables', () => psychSection(ds, fit, input.groups)));
  const subs = await step('a smaller benchmark', () =>
    subsets(ds, fit, opts.budgets ?? REPORT_BUDGETS, opts.signal),
  );
  parts.push(subsetSection(subs, ds.I));
  parts.push(await step('model comparison', () => cvSection(input.cv)));
  parts.push(await step('appendix', () => appendixSection(subs, ds)));
  opts.onProgress?.({ done, total, stage: 'done' });
  const title = `Benchmark audit: ${ds.J} LLMs × ${ds.I} items (${fit.model})`;
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${esc(title)}</title>\n<style>${REPORT_CSS}</style>\n</head>\n<body>\n${header(ds, fit, opts.date)}\n<main>\n${parts.join('\n')}\n</main>\n</body>\n</html>\n`;
}
