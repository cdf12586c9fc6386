/**
 * The Psychometrics tab's statistics, computed here so the page never blocks on
 * them (seconds for thousands of items): item and LLM fit, reliability, the
 * classical item analysis, and Mantel–Haenszel DIF.
 */
import type { Dataset } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import { OPTION_LABELS } from '../core/data/types';
import { classicalAnalysis, type DdRow } from '../core/psych/classical';
import { mantelHaenszel } from '../core/psych/dif';
import { modelFit } from '../core/psych/itemfit';
import { reliability } from '../core/psych/reliability';
import {
  dataMismatch,
  type DataKey,
  type DdColumns,
  type DifReply,
  type DifRequest,
  type PsychTables,
} from '../boundary/psychProtocol';

/** Whether `key` names `ds`'s items and LLMs, in order. */
export function sameData(key: DataKey, ds: Dataset): boolean {
  return (
    key.itemIds.length === ds.I &&
    key.llmIds.length === ds.J &&
    key.itemIds.every((id, i) => id === ds.itemIds[i]) &&
    key.llmIds.every((id, j) => id === ds.llmIds[j])
  );
}

/** Throws the typed DataMismatchError unless `fit` is a fit of `ds`. */
export function checkFitOf(fit: FitJson, ds: Dataset): void {
  const key = { itemIds: fit.items.map((it) => it.id), llmIds: fit.llms.map((l) => l.id) };
  if (!sameData(key, ds)) throw dataMismatch('the fit is not of the data set loaded in the worker');
}

/** Item and LLM fit, reliability and classical analysis of `fit` on `ds` (the page reads no option shares). */
export function psychTables(fit: FitJson, ds: Dataset): PsychTables {
  checkFitOf(fit, ds);
  const { items, dd, groups } = classicalAnalysis(ds);
  return {
    modelFit: modelFit(fit, ds),
    reliability: reliability(fit, ds),
    classical: { items, dd: ddColumns(dd, ds), groups },
  };
}

/** The DDplot rows as columns (see DdColumns). */
export function ddColumns(rows: DdRow[], ds: Dataset): DdColumns {
  const index = new Map(ds.itemIds.map((id, i) => [id, i]));
  const labels: readonly string[] = OPTION_LABELS;
  const n = rows.length;
  const c: DdColumns = {
    item: new Int32Array(n),
    group: new Int32Array(n),
    option: new Int32Array(n),
    isKey: new Uint8Array(n),
    share: new Float64Array(n),
    n: new Float64Array(n),
  };
  rows.forEach((r, k) => {
    c.item[k] = index.get(r.item) ?? -1;
    c.group[k] = r.group;
    c.option[k] = labels.indexOf(r.option);
    c.isKey[k] = r.isKey ? 1 : 0;
    c.share[k] = r.share;
    c.n[k] = r.n;
  });
  return c;
}

/** The buffers of `t` to transfer. */
export function psychBuffers(t: PsychTables): ArrayBuffer[] {
  return Object.values(t.classical.dd).map((a: ArrayBufferView) => a.buffer as ArrayBuffer);
}

/** Mantel–Haenszel DIF on `ds` for the groups of `req`. */
export function difTable(req: DifRequest, ds: Dataset): DifReply {
  if (!sameData(req.data, ds))
    throw dataMismatch('the DIF groups are not of the data set loaded in the worker');
  if (req.group.length !== ds.J)
    throw new Error(`DIF needs a group for each of the ${ds.J} LLMs, got ${req.group.length}`);
  return mantelHaenszel(ds, req.group, req.names);
}
