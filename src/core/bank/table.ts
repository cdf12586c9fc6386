/**
 * A bank flattened into one parameter table, like mirt's `mod2values`: one row
 * per (item, parameter, option), easy to read from R or Python.
 */
import { OPTION_LABELS } from '../data/types';
import { isBinary, nominalTerms, type NominalModel } from '../model/types';
import type { ItemBank } from './bank';

export interface ParameterRow {
  /** Item id, or '(global)' for the gate's w0 and kappa. */
  item: string;
  benchmark: string;
  /** mirt's item class: 'nominal', '2PL', ... ('llmnrm-gate' for the global rows). */
  class: string;
  /** Key label of the item ('' for global rows). */
  key: string;
  /** a, c (per option), b; slope, d, g, u for binary items; w0, kappa. */
  parameter: string;
  /** Option label for per-option parameters, '' otherwise. */
  option: string;
  value: number;
  /**
   * Standard error of `value` from the calibration fit's Laplace step (fit.json's
   * aSE, cSE, bSE, ...; fit/uncertainty/laplace.ts), NaN (an empty CSV cell) where the bank
   * has none.
   */
  se: number;
}

/**
 * Rows (each with its SE where the bank has one): nominal items give a and c for each option plus b̃ (2K + 1 rows); binary
 * items slope, d, g, u and b (5 rows); models with the fallback gate add w0 and
 * kappa once.
 */
export function bankToParameterTable(bank: ItemBank): ParameterRow[] {
  const rows: ParameterRow[] = [];
  const binary = isBinary(bank.model);
  const cls = binary ? bank.model.toUpperCase() : 'nominal';
  for (const it of bank.items) {
    const base = { item: it.id, benchmark: it.benchmark, class: cls, key: it.key };
    if (binary) {
      for (const p of ['slope', 'd', 'g', 'u', 'b'] as const)
        rows.push({
          ...base,
          parameter: p,
          option: '',
          value: it[p] ?? NaN,
          se: it[`${p}SE`] ?? NaN,
        });
      continue;
    }
    for (const p of ['a', 'c'] as const)
      it[p]!.forEach((v, k) =>
        rows.push({
          ...base,
          parameter: p,
          option: OPTION_LABELS[k],
          value: v,
          se: it[`${p}SE`]?.[k] ?? NaN,
        }),
      );
    rows.push({ ...base, parameter: 'b', option: '', value: it.b, se: it.bSE ?? NaN });
  }
  if (!binary && nominalTerms(bank.model as NominalModel).fallback) {
    const g = { item: '(global)', benchmark: '', class: 'llmnrm-gate', key: '', option: '' };
    rows.push({ ...g, parameter: 'w0', value: bank.global.w0, se: bank.global.w0SE ?? NaN });
    rows.push({
      ...g,
      parameter: 'kappa',
      value: bank.global.kappa,
      se: bank.global.kappaSE ?? NaN,
    });
  }
  return rows;
}
