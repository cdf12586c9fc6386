/**
 * Item quality flags for the Items view: flagItems on the shown fit and its
 * data, indexed by item, with short labels, a filter and a CSV export.
 */
import { useMemo } from 'react';
import { toCsv } from '../../../boundary/csv';
import { FLAG_COLUMNS, flagItems, type FlagKind, type ItemFlag } from '../../../core/bank/flags';
import type { Dataset } from '../../../core/data/types';
import type { FitJson } from '../../../core/fit/types';

/** Short labels for the table; the reason and evidence go in the tooltip. */
export const FLAG_LABELS: Record<FlagKind, string> = {
  'possibly-mis-keyed': 'mis-keyed?',
  'non-discriminating': 'non-discriminating',
  saturated: 'saturated',
  'no-informative-distractor': 'no informative distractor',
  'duplicate-pattern': 'duplicate?',
};

export const FLAG_KINDS = Object.keys(FLAG_LABELS) as FlagKind[];

export interface FlagIndex {
  all: ItemFlag[];
  byItem: Map<string, ItemFlag[]>;
  /** Flags of each kind. */
  counts: Map<FlagKind, number>;
}

export function indexFlags(all: ItemFlag[]): FlagIndex {
  const byItem = new Map<string, ItemFlag[]>();
  const counts = new Map<FlagKind, number>();
  for (const f of all) {
    byItem.set(f.item, [...(byItem.get(f.item) ?? []), f]);
    counts.set(f.flag, (counts.get(f.flag) ?? 0) + 1);
  }
  return { all, byItem, counts };
}

/** The flags of the shown fit, recomputed when the fit or data change (a few ms on the demo). */
export function useItemFlags(fit: FitJson, ds: Dataset): FlagIndex {
  return useMemo(() => indexFlags(flagItems(fit, ds)), [fit, ds]);
}

/** 'all' items, those with 'any' flag, with 'none', or with one kind of flag. */
export type FlagFilter = 'all' | 'any' | 'none' | FlagKind;

export function matchesFlag(flags: ItemFlag[] | undefined, filter: FlagFilter): boolean {
  const n = flags?.length ?? 0;
  if (filter === 'all') return true;
  if (filter === 'any') return n > 0;
  if (filter === 'none') return n === 0;
  return !!flags?.some((f) => f.flag === filter);
}

/** Rows (anything with an item id) whose flags match the filter. */
export function filterByFlag<T extends { id: string }>(
  rows: T[],
  idx: FlagIndex,
  filter: FlagFilter,
): T[] {
  return filter === 'all' ? rows : rows.filter((r) => matchesFlag(idx.byItem.get(r.id), filter));
}

/** The short labels of an item's flags, '; '-separated ('' when none). */
export function flagLabels(flags: ItemFlag[] | undefined): string {
  return (flags ?? []).map((f) => FLAG_LABELS[f.flag]).join('; ');
}

/** Tooltip text of one flag: the plain-language reason and the numbers behind it. */
export function flagTitle(f: ItemFlag): string {
  return `${f.reason}\nEvidence: ${f.evidence}`;
}

/** Flags matching the filter as CSV: one row per flag (an item can have several). */
export function flaggedCsv(idx: FlagIndex, filter: FlagFilter = 'any'): string {
  const rows = idx.all.filter(
    (f) => filter === 'all' || filter === 'any' || filter === 'none' || f.flag === filter,
  );
  return toCsv(filter === 'none' ? [] : rows, FLAG_COLUMNS);
}
