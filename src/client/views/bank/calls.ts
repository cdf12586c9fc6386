/** The worker's item-bank calls (worker/bank.ts), each behind the one bridge and its queue. */
import * as Comlink from 'comlink';
import type { FitSettings } from '../../../core/fit/types';
import type {
  CatResult,
  CatSettings,
  CatSource,
  HoldOutResult,
  ItemBank,
  NewDataInfo,
  ScoreResult,
} from '../../../shared/bankProtocol';
import type { LoadOptions, LoadProgress, LoadSource } from '../../../shared/protocol';
import { getBridge } from '../../bridge';

/** Reads new LLMs' data into the worker's second slot (the calibration data stays). */
export function loadNewData(
  signal: AbortSignal,
  sources: LoadSource[],
  opts: LoadOptions,
  onProgress: (p: LoadProgress) => void,
): Promise<NewDataInfo> {
  return getBridge().bank(signal, (b, id) =>
    b.loadNew(sources, opts, Comlink.proxy(onProgress), id),
  );
}

/** Scores the new LLMs against `bank`. */
export function scoreNew(signal: AbortSignal, bank: ItemBank): Promise<ScoreResult> {
  return getBridge().bank(signal, (b, id) => b.score(bank, id));
}

/** Calibrates a bank on the first `nCalibration` LLMs of `sources` and scores the rest. */
export function holdOut(
  signal: AbortSignal,
  sources: LoadSource[],
  settings: FitSettings,
  nCalibration: number,
  onStage: (stage: string) => void,
): Promise<HoldOutResult> {
  return getBridge().bank(signal, (b, id) =>
    b.holdOut(sources, settings, nCalibration, Comlink.proxy(onStage), id),
  );
}

/** A simulated adaptive test of one LLM against `bank`. */
export function simulateCat(
  signal: AbortSignal,
  bank: ItemBank,
  from: CatSource,
  llm: number,
  settings: CatSettings,
): Promise<CatResult> {
  return getBridge().bank(signal, (b, id) => b.cat(bank, from, llm, settings, id));
}
