/**
 * Item-bank calls of the worker: a second data slot for new LLMs (the
 * calibration data stays where it is), scoring them against a bank, simulated
 * adaptive tests, and the calibrate-then-score hold-out. Banks arrive with each
 * call (they are small), so the worker keeps no bank state. No DOM here.
 */
import { bankAsFit, bankFromFit, type ItemBank } from '../core/bank/bank';
import { runCat } from '../core/bank/cat';
import { responseModel } from '../core/bank/model';
import { datasetSummary } from '../core/data/summary';
import { subsetDataset } from '../core/data/subset';
import type { Dataset, ItemText } from '../core/data/types';
import type { EngineChoice } from '../core/engines/types';
import { fitDataset, type EngineHandle } from '../core/fit/fit';
import { scoreLlms, type ScoreResult } from '../core/fit/score';
import type { FitSettings } from '../core/fit/types';
import type {
  CatResult,
  CatSettings,
  CatSource,
  HoldOutResult,
  NewDataInfo,
} from '../boundary/bankProtocol';
import { pickEngine } from './engines';
import type { LoadOptions, LoadProgress, LoadSource } from '../boundary/protocol';
import { readSources, release } from './sources';

/** What the bank calls need from the worker that hosts them. */
export interface BankHost {
  /** An AbortController that `cancel(callId)` aborts. */
  register(callId: number): AbortController;
  /** Forget the call's controller. */
  done(callId: number): void;
  /** The calibration data set (the one `load` filled), if any. */
  calibration(): Dataset | null;
  /** The engine for a fit setting's choice (default: the worker's `pickEngine`). */
  engine?: (choice: EngineChoice) => Promise<EngineHandle>;
}

const texts = (ds: Dataset): Map<string, ItemText | null> =>
  new Map(ds.itemIds.map((id, i) => [id, ds.itemTexts?.[i] ?? null]));

export function createBankApi(host: BankHost) {
  let fresh: { ds: Dataset; info: NewDataInfo } | null = null;

  /** Runs `work` under the call's AbortSignal, always forgetting the call. */
  async function run<T>(callId: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ac = host.register(callId);
    try {
      return await work(ac.signal);
    } finally {
      host.done(callId);
    }
  }

  function keep(ds: Dataset, files: string[], seconds: number): NewDataInfo {
    const info = { files, llmIds: [...ds.llmIds], summary: datasetSummary(ds), seconds };
    fresh = { ds, info };
    return info;
  }

  function newData(): Dataset {
    if (!fresh)
      throw new Error(
        'No new LLMs are loaded (or the worker restarted since): load their data again.',
      );
    return fresh.ds;
  }

  return {
    /** Reads new LLMs' data into its own slot; the calibration data is untouched. */
    loadNew(
      sources: LoadSource[],
      opts: LoadOptions,
      onProgress: (p: LoadProgress) => void,
      callId: number,
    ): Promise<NewDataInfo> {
      return run(callId, async (signal) => {
        const t0 = performance.now();
        try {
          const ds = await readSources(sources, opts, onProgress, signal);
          const seconds = (performance.now() - t0) / 1000;
          return keep(
            ds,
            sources.map((s) => s.name),
            seconds,
          );
        } finally {
          release(onProgress);
        }
      });
    },

    /** Scores the new LLMs against `bank` (θ MAP with item parameters fixed). */
    score(bank: ItemBank, callId: number): Promise<ScoreResult> {
      return run(callId, (signal) => scoreLlms(newData(), bankAsFit(bank), { signal }));
    },

    /**
     * Reads `sources`, calibrates a bank on the first `nCalibration` LLMs with
     * `settings`, puts the others in the new-LLM slot and scores them.
     */
    holdOut(
      sources: LoadSource[],
      settings: FitSettings,
      nCalibration: number,
      onStage: (stage: string) => void,
      callId: number,
    ): Promise<HoldOutResult> {
      return run(callId, async (signal) => {
        try {
          onStage('Reading the data…');
          const t0 = performance.now();
          const ds = await readSources(sources, {}, () => undefined, signal);
          if (!(nCalibration >= 2 && nCalibration < ds.J))
            throw new Error(
              `Cannot calibrate on ${nCalibration} of ${ds.J} LLMs and hold out the rest.`,
            );
          const all = Array.from({ length: ds.J }, (_, j) => j);
          const cal = subsetDataset(ds, all.slice(0, nCalibration));
          const held = subsetDataset(ds, all.slice(nCalibration));
          const files = sources.map((s) => s.name);
          const info = keep(held, files, (performance.now() - t0) / 1000);
          onStage(`Calibrating a bank on ${nCalibration} LLMs…`);
          const engine = await (host.engine ?? pickEngine)(settings.engine);
          const fit = await fitDataset(cal, settings, { signal, engine });
          const bank = bankFromFit(fit, { dataFiles: files, settings }, texts(cal));
          onStage(`Scoring ${held.J} held-out LLMs…`);
          const score = await scoreLlms(held, bankAsFit(bank), { signal });
          return { bank, newData: info, score };
        } finally {
          release(onStage);
        }
      });
    },

    /** A simulated adaptive test of LLM `llm` of the new or the calibration data. */
    cat(
      bank: ItemBank,
      from: CatSource,
      llm: number,
      settings: CatSettings,
      callId: number,
    ): Promise<CatResult> {
      return run(callId, async (signal) => {
        const ds = from === 'new' ? newData() : host.calibration();
        if (!ds) throw new Error('No calibration data is loaded.');
        if (!(llm >= 0 && llm < ds.J)) throw new Error(`There is no LLM number ${llm + 1}.`);
        const m = responseModel(bank);
        let pool = 0;
        for (let i = 0; i < ds.I; i++)
          if (ds.observed[llm * ds.I + i] && m.index.has(ds.itemIds[i])) pool++;
        if (pool === 0)
          throw new Error(
            `${ds.llmIds[llm]} answered none of the bank's items: nothing to test it with.`,
          );
        return runCat(m, ds, llm, { ...settings, signal });
      });
    },
  };
}

/** The bank calls as the bridge sees them (a type only on the main thread). */
export type BankApi = ReturnType<typeof createBankApi>;
