/** Section 3: the LLM ranking — θ ± SE beside accuracy, sharpness, position bias and fallback. */
import { OPTION_LABELS } from '../../core/data/types';
import type { FitJson, LlmResult } from '../../core/fit/types';
import { isBinary, nominalTerms, type NominalModel } from '../../core/model/types';
import { ranks } from '../../core/stats/corr';
import { CAPS } from '../caps';
import { count, figure, fmt, numCell, pct, section, table, textCell } from '../html';
import { forestChart, forestDomain, type ForestRow } from '../svg/forest';

/** The largest entry of v and its option label ('—' when v is empty or all zero). */
function largest(v: number[]): string {
  let k = -1;
  v.forEach((x, q) => {
    if (k < 0 || x > v[k]) k = q;
  });
  if (k < 0 || v.every((x) => x === 0)) return '—';
  return `${OPTION_LABELS[k]} ${fmt(v[k], 2)}`;
}

interface Ranked {
  l: LlmResult;
  thetaRank: number;
  accRank: number;
}

/** LLMs best first by θ (ties by id), with their rank by θ and by accuracy (1 = best; ties share the mean rank). */
export function rankLlms(fit: FitJson): Ranked[] {
  const rt = ranks(fit.llms.map((l) => -l.theta));
  const ra = ranks(fit.llms.map((l) => -l.accuracy));
  return fit.llms
    .map((l, j) => ({ l, thetaRank: rt[j], accRank: ra[j], j }))
    .sort((a, b) => b.l.theta - a.l.theta || (a.l.id < b.l.id ? -1 : a.l.id > b.l.id ? 1 : 0))
    .map(({ l, thetaRank, accRank }) => ({ l, thetaRank, accRank }));
}

const rankText = (r: number) => (Number.isInteger(r) ? String(r) : fmt(r, 1));

function reading(rows: Ranked[]): string {
  if (rows.length === 0) return 'The fit has no LLMs.';
  const top = rows[0].l;
  const bottom = rows[rows.length - 1].l;
  const gaps = [...rows].sort(
    (a, b) =>
      Math.abs(b.thetaRank - b.accRank) - Math.abs(a.thetaRank - a.accRank) ||
      (a.l.id < b.l.id ? -1 : 1),
  );
  const g = gaps[0];
  const d = g.accRank - g.thetaRank;
  const disagree =
    Math.abs(d) < 1
      ? 'The ranking by θ and the ranking by accuracy agree on every LLM.'
      : `θ and accuracy disagree most on ${g.l.id}: rank ${rankText(g.thetaRank)} by θ but ${rankText(g.accRank)} by accuracy (${pct(g.l.accuracy, 1)} correct), so the option-level model places it ${d > 0 ? 'higher' : 'lower'} than its accuracy does: θ reads how much probability it puts on each option, including which wrong options it prefers, not only whether its top answer is the key.`;
  const ses = rows.map((r) => r.l.thetaSE).filter(Number.isFinite);
  const meanSe = ses.reduce((a, b) => a + b, 0) / (ses.length || 1);
  return `${top.id} ranks first (θ = ${fmt(top.theta, 2)} ± ${fmt(top.thetaSE, 2)}) and ${bottom.id} last (θ = ${fmt(bottom.theta, 2)}) of ${count(rows.length, 'LLM')}; the mean standard error of θ is ${fmt(meanSe, 2)}, so LLMs whose θ differ by less than about ${fmt(2 * 1.96 * meanSe, 2)} are not clearly apart. ${disagree}`;
}

/**
 * The forest plot, in parts of at most CAPS.forestRows LLMs on one θ axis, so
 * that no printed chart is taller than a page (a figure is never split).
 */
function forestFigures(rows: ForestRow[]): string {
  const domain = forestDomain(rows);
  const n = Math.ceil(rows.length / CAPS.forestRows);
  return Array.from({ length: n }, (_, q) => {
    const part = rows.slice(q * CAPS.forestRows, (q + 1) * CAPS.forestRows);
    const which =
      n > 1
        ? ` (ranks ${q * CAPS.forestRows + 1}–${q * CAPS.forestRows + part.length} of ${rows.length})`
        : '';
    return figure(
      forestChart(part, domain, which),
      `θ with its 95% interval (θ ± 1.96·SE), best first${which}.`,
    );
  }).join('\n');
}

export function rankingSection(fit: FitJson): string {
  const rows = rankLlms(fit);
  const shown = rows.slice(0, CAPS.llms);
  const terms = isBinary(fit.model) ? null : nominalTerms(fit.model as NominalModel);
  const chart = forestFigures(
    shown.map((r) => ({ label: r.l.id, theta: r.l.theta, se: r.l.thetaSE })),
  );
  const head = [
    'LLM',
    'θ',
    'SE',
    'rank by θ',
    'accuracy',
    'rank by accuracy',
    's',
    'largest δ',
    'largest ρ',
  ];
  const body = rows.map((r) => [
    textCell(r.l.id),
    numCell(fmt(r.l.theta, 3)),
    numCell(fmt(r.l.thetaSE, 3)),
    numCell(rankText(r.thetaRank)),
    numCell(pct(r.l.accuracy, 1)),
    numCell(rankText(r.accRank)),
    numCell(terms?.sharpness ? fmt(r.l.s, 2) : '—'),
    textCell(terms?.position ? largest(r.l.delta) : '—'),
    textCell(terms?.fallback ? largest(r.l.rho) : '—'),
  ]);
  const tbl = table(
    'LLMs by θ, with accuracy, sharpness s, position bias δ and fallback ρ',
    head,
    body,
    {
      cap: CAPS.llms,
    },
  );
  return section('ranking', '3. LLM ranking', reading(rows), `${chart}\n${tbl}`);
}
