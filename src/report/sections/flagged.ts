/**
 * Section 4: items that need a look — every flag of core/bank/flags.ts with its
 * reason and numbers; the first CAPS.flaggedDetailed flagged items also with
 * their question, options and option curves.
 */
import type { ItemFlag, FlagKind } from '../../core/bank/flags';
import type { Dataset } from '../../core/data/types';
import { OPTION_LABELS } from '../../core/data/types';
import { nominalItemOf } from '../../core/fit/info';
import type { FitJson } from '../../core/fit/types';
import { probtrace, thetaGrid } from '../../core/model/itemfns';
import { isBinary } from '../../core/model/types';
import { CAPS, clipText } from '../caps';
import { count, esc, int, section, table, textCell } from '../html';
import { itemCurvesChart } from '../svg/itemCurves';

const KINDS: FlagKind[] = [
  'possibly-mis-keyed',
  'non-discriminating',
  'saturated',
  'no-informative-distractor',
  'duplicate-pattern',
];

/** Flags grouped by item: items with a more serious flag first, then in the fit's item order. */
function byItem(fit: FitJson, flags: ItemFlag[]): { index: number; flags: ItemFlag[] }[] {
  const index = new Map(fit.items.map((it, i) => [it.id, i]));
  const groups = new Map<number, ItemFlag[]>();
  for (const f of flags) {
    const i = index.get(f.item) ?? -1;
    const g = groups.get(i);
    if (g) g.push(f);
    else groups.set(i, [f]);
  }
  // The most serious first (KINDS order of an item's worst flag), then item order.
  const rank = (fl: ItemFlag[]) => Math.min(...fl.map((f) => KINDS.indexOf(f.flag)));
  return [...groups]
    .sort((a, b) => rank(a[1]) - rank(b[1]) || a[0] - b[0])
    .map(([index, fl]) => ({ index, flags: fl }));
}

/** The question and options of item i, the key marked (word and weight, not colour). */
function texts(ds: Dataset, i: number, key: string): string {
  const t = ds.itemTexts?.[i];
  if (!t) return '<p class="muted">No item text was loaded for this item.</p>';
  const opts = t.options
    .slice(0, ds.nOptions[i])
    .map((o, k) => {
      const isKey = OPTION_LABELS[k] === key;
      const body = `${OPTION_LABELS[k]}. ${esc(clipText(o || '(empty)'))}`;
      return `<li>${isKey ? `<strong>${body} (key)</strong>` : body}</li>`;
    })
    .join('');
  return `<p class="question">${esc(clipText(t.question))}</p><ol class="options">${opts}</ol>`;
}

function curves(fit: FitJson, i: number, grid: Float64Array): string {
  const it = fit.items[i];
  if (isBinary(fit.model) || !it.a) return '';
  const ni = nominalItemOf(it);
  const tr = probtrace(ni, grid);
  const series = Array.from({ length: it.nOptions }, (_, k) => ({
    label: OPTION_LABELS[k],
    isKey: k === ni.key,
    p: Float64Array.from(tr, (row) => row[k]),
  }));
  const marks = fit.llms.map((l) => l.theta).sort((a, b) => a - b);
  return `<figure class="curve">${itemCurvesChart(it.id, grid, series, marks)}<figcaption>P(option | θ) of ${esc(it.id)}; * marks the key.</figcaption></figure>`;
}

function detail(
  ds: Dataset,
  fit: FitJson,
  g: { index: number; flags: ItemFlag[] },
  grid: Float64Array,
): string {
  const it = fit.items[g.index];
  const list = g.flags
    .map(
      (f) =>
        `<li><strong>${esc(f.flag)}</strong>${f.option ? ` (option ${esc(f.option)})` : ''}: ${esc(f.reason)} <span class="evidence">${esc(f.evidence)}</span></li>`,
    )
    .join('');
  return `<article class="flagged" id="item-${g.index}">\n<h3>${esc(it.id)} <span class="muted">(${esc(it.benchmark || 'no benchmark')}, key ${esc(it.key)})</span></h3>\n<ul class="flags">${list}</ul>\n<div class="item-body"><div class="item-text">${texts(ds, g.index, it.key)}</div>${curves(fit, g.index, grid)}</div>\n</article>`;
}

function reading(flags: ItemFlag[], items: number, total: number): string {
  if (flags.length === 0) return `No item of the ${int(total)} raised a flag.`;
  const n = KINDS.map((k) => [k, flags.filter((f) => f.flag === k).length] as const).filter(
    ([, c]) => c > 0,
  );
  const parts = n.map(([k, c]) => `${int(c)} ${k}`).join(', ');
  const mis = n.find(([k]) => k === 'possibly-mis-keyed');
  const first = mis
    ? ` The ${count(mis[1], 'possibly mis-keyed item')} should be checked against the source first: a wrong key misleads every score on it.`
    : ' No item looks mis-keyed.';
  return `${count(items, 'item')} of ${int(total)} (${((100 * items) / total).toFixed(1)}%) raised ${count(flags.length, 'flag')}: ${parts}.${first} Each flag says what may be wrong and the numbers behind it.`;
}

export function flaggedSection(ds: Dataset, fit: FitJson, flags: ItemFlag[]): string {
  const groups = byItem(fit, flags);
  const grid = thetaGrid(-4, 4, 41);
  const detailed = groups.slice(0, CAPS.flaggedDetailed).map((g) => detail(ds, fit, g, grid));
  const rest = groups
    .slice(CAPS.flaggedDetailed)
    .flatMap((g) =>
      g.flags.map((f) => [
        textCell(f.item),
        textCell(f.benchmark),
        textCell(f.key),
        textCell(f.flag),
        textCell(f.option),
        textCell(f.reason),
        textCell(f.evidence),
      ]),
    );
  const restTable = rest.length
    ? `<h3>The other flagged items</h3>\n${table(`Flags of the ${int(groups.length - detailed.length)} flagged items not drawn above`, ['item', 'benchmark', 'key', 'flag', 'option', 'reason', 'evidence'], rest, { cap: CAPS.flaggedTable })}`
    : '';
  const shownNote =
    groups.length > detailed.length
      ? `<p>The first ${int(detailed.length)} flagged items, the most serious flags first (mis-keyed, non-discriminating, saturated, no informative distractor, duplicate pattern), are shown in full; the rest are listed in the table after them.</p>`
      : '';
  return section(
    'flagged',
    '4. Items that need a look',
    reading(flags, groups.length, fit.items.length),
    `${shownNote}\n${detailed.join('\n')}\n${restTable}`,
  );
}
