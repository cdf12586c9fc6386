/** Section 6: psychometric tables — item and LLM fit outliers, reliability, and DIF when groups are given. */
import type { Dataset } from '../../core/data/types';
import type { FitJson } from '../../core/fit/types';
import { mantelHaenszel, type MhRow } from '../../core/psych/dif';
import { FIT_THRESHOLDS, modelFit, type FitStats } from '../../core/psych/itemfit';
import { reliability, type ReliabilityRow } from '../../core/psych/reliability';
import { CAPS } from '../caps';
import { count, fmt, int, numCell, para, section, table, textCell } from '../html';
import type { ReportInput } from '../types';

/** Worst first: the larger of infit and outfit's distance from 1. */
const misfit = (s: FitStats) => Math.max(Math.abs(s.infit - 1), Math.abs(s.outfit - 1));

function outliers<R extends FitStats>(rows: R[], name: (r: R) => string, what: string): string {
  const out = rows
    .filter((r) => r.flag !== '')
    .sort((a, b) => misfit(b) - misfit(a) || (name(a) < name(b) ? -1 : 1));
  if (out.length === 0)
    return para(
      `No ${what} is outside ${FIT_THRESHOLDS.overfit}–${FIT_THRESHOLDS.underfit} on infit or outfit.`,
    );
  return table(
    `${what[0].toUpperCase()}${what.slice(1)} fit outliers, worst first (${int(out.length)} of ${int(rows.length)})`,
    [what, 'infit', 'outfit', 'z infit', 'z outfit', 'cells', 'flag'],
    out.map((r) => [
      textCell(name(r)),
      numCell(fmt(r.infit, 2)),
      numCell(fmt(r.outfit, 2)),
      numCell(fmt(r.z_infit, 1)),
      numCell(fmt(r.z_outfit, 1)),
      numCell(int(r.n)),
      textCell(r.flag),
    ]),
    { cap: CAPS.fitOutliers },
  );
}

function reliabilityTable(rows: ReliabilityRow[]): string {
  return table(
    'Reliability of θ, overall and per benchmark',
    ['benchmark', 'items', 'empirical', 'marginal', 'Cronbach α (correctness)', 'LLMs in α'],
    rows.map((r) => [
      textCell(r.benchmark),
      numCell(int(r.items)),
      numCell(fmt(r.empirical, 3)),
      numCell(fmt(r.marginal, 3)),
      numCell(fmt(r.alpha, 3)),
      numCell(int(r.alphaN)),
    ]),
  );
}

function difPart(ds: Dataset, groups: ReportInput['groups']): { html: string; flagged: number } {
  if (!groups)
    return {
      html: para(
        'No LLM groups were given, so DIF was not run (the CLI takes --groups groups.csv).',
      ),
      flagged: 0,
    };
  const rows = mantelHaenszel(ds, groups.group, groups.names);
  const flagged = rows
    .filter((r) => r.flag)
    .sort((a, b) => a.p - b.p || (a.item < b.item ? -1 : 1));
  const html = table(
    `Mantel–Haenszel DIF: flagged items (${int(flagged.length)} of ${int(rows.length)} item–group pairs), smallest p first`,
    ['item', 'benchmark', 'reference', 'focal', 'Δ MH', 'SE', 'p', 'ETS class'],
    flagged.map((r: MhRow) => [
      textCell(r.item),
      textCell(r.benchmark),
      textCell(r.reference),
      textCell(r.focal),
      numCell(fmt(r.deltaMH, 2)),
      numCell(fmt(r.deltaSE, 2)),
      numCell(r.p < 1e-4 ? r.p.toExponential(1) : fmt(r.p, 4)),
      textCell(r.ets || '—'),
    ]),
    { cap: CAPS.dif },
  );
  return { html, flagged: flagged.length };
}

export function psychSection(ds: Dataset, fit: FitJson, groups: ReportInput['groups']): string {
  const mf = modelFit(fit, ds);
  const rel = reliability(fit, ds);
  const dif = difPart(ds, groups);
  const all = rel[0];
  const badItems = mf.items.filter((r) => r.flag !== '').length;
  const badLlms = mf.llms.filter((r) => r.flag !== '').length;
  const reading = `On ${mf.kind}-level residuals, ${count(badItems, 'item')} of ${int(mf.items.length)} and ${count(badLlms, 'LLM')} of ${int(mf.llms.length)} fit worse or better than the model predicts (infit or outfit beyond ${FIT_THRESHOLDS.underfit}, or both below ${FIT_THRESHOLDS.overfit}). The reliability of θ is ${fmt(all.empirical, 3)} (empirical: the share of θ's spread over the LLMs that is not estimation error) and ${fmt(all.marginal, 3)} marginal over θ ~ N(0, 1); Cronbach's α on correctness is ${fmt(all.alpha, 3)}${groups ? `. DIF flagged ${count(dif.flagged, 'item–group pair')}.` : '. DIF was not run: no LLM groups were given.'}`;
  const body = `<h3>Item fit</h3>\n${outliers(mf.items, (r) => r.item, 'item')}\n<h3>LLM fit</h3>\n${outliers(mf.llms, (r) => r.llm, 'LLM')}\n<h3>Reliability</h3>\n${reliabilityTable(rel)}\n<h3>Differential item functioning</h3>\n${dif.html}`;
  return section('psychometrics', '6. Psychometric tables', reading, body);
}
