/** The DIF table: Mantel–Haenszel (dif.ts) and, given a fit, the likelihood-ratio test (difLr.ts), one row per item and focal group. */
import type { Dataset } from '../data/types';
import type { FitJson } from '../fit/types';
import { DIF_PAIR_COLUMNS, mantelHaenszel, type DifPair, type EtsClass } from './dif';
import { lrDif } from './difLr';

export interface DifRow extends DifPair {
  mhDelta: number;
  mhDeltaSE: number;
  mhDeltaLo: number;
  mhDeltaHi: number;
  mhChi2: number;
  mhP: number;
  ets: EtsClass;
  /** ETS class B or C. */
  mhFlag: boolean;
  lrChi2: number;
  lrDf: number;
  lrP: number;
  lrQ: number;
  lrEffect: number;
  /** Benjamini–Hochberg q < 0.05. */
  lrFlag: boolean;
}

export const DIF_COLUMNS = [
  ...DIF_PAIR_COLUMNS,
  'mhDelta',
  'mhDeltaSE',
  'mhDeltaLo',
  'mhDeltaHi',
  'mhChi2',
  'mhP',
  'ets',
  'mhFlag',
  'lrChi2',
  'lrDf',
  'lrP',
  'lrQ',
  'lrEffect',
  'lrFlag',
] as const;

/** MH for every item and focal group; the LR columns too when `fit` is given (NaN otherwise). */
export async function difTable(
  ds: Dataset,
  group: string[],
  names: string[],
  opts: { reference?: string; fit?: FitJson; signal?: AbortSignal } = {},
): Promise<DifRow[]> {
  const reference = opts.reference ?? names[0];
  if (!names.includes(reference))
    throw new Error(`The reference group "${reference}" has no LLMs in the data.`);
  const mh = mantelHaenszel(ds, group, names, reference);
  const lr = opts.fit ? await lrDif(opts.fit, ds, group, names, reference, opts.signal) : null;
  return mh.map((m, r) => {
    const l = lr?.[r];
    const { item, benchmark, reference, focal, nRef, nFocal } = m;
    return {
      item,
      benchmark,
      reference,
      focal,
      nRef,
      nFocal,
      mhDelta: m.deltaMH,
      mhDeltaSE: m.deltaSE,
      mhDeltaLo: m.deltaLo,
      mhDeltaHi: m.deltaHi,
      mhChi2: m.chi2,
      mhP: m.p,
      ets: m.ets,
      mhFlag: m.flag,
      lrChi2: l?.lrChi2 ?? NaN,
      lrDf: l?.df ?? NaN,
      lrP: l?.p ?? NaN,
      lrQ: l?.q ?? NaN,
      lrEffect: l?.effect ?? NaN,
      lrFlag: l?.flag ?? false,
    };
  });
}
