/**
 * The compute worker: parses files and fits models off the main thread. It
 * keeps the last loaded data set, so a fit never re-sends it. No DOM here.
 */
import * as Comlink from 'comlink';
import { datasetSummary } from '../core/data/summary';
import type { Dataset } from '../core/data/types';
import type { EngineChoice } from '../core/engines/types';
import type { FitJson, FitProgress, FitSettings } from '../core/fit/types';
import type { CheckpointSaved, DeviceLoss, ResumeFrom } from '../boundary/checkpoint';
import { CheckpointWriter, dropCheckpoint } from './checkpointStore';
import { fitWithRecovery } from './checkpoint';
import { takeDeviceLoss } from './faults';
import { takeCheckpointStall, takeLbfgsStall, takeSearchStall } from './stall';
import { testHooks, type TestHooks } from './testHooks';
import { createBankApi } from './bank';
import { readSources, release } from './sources';
import { deriveInWorker } from './derive';
import { checkFitOf, difTable, psychBuffers, psychTables } from './psych';
import { llmAbilityViews, type LlmAbilityViews } from '../core/eval/abilityViews';
import { pickEngine, resolveChoice } from './engines';
import { keepErrorFields } from '../boundary/errorTransfer';
import { runEvaluation } from './evaluate';
import { reportInWorker } from './report';
import type { ReportProgress } from '../report/types';
import type { EvalProgressReport, EvalReply, EvalRequest } from '../boundary/evaluateProtocol';
import type {
  DerivedReply,
  EngineResolution,
  LoadOptions,
  LoadProgress,
  LoadResult,
  LoadSource,
} from '../boundary/protocol';
import {
  dataMismatch,
  type DifReply,
  type DifRequest,
  type PsychTables,
} from '../boundary/psychProtocol';
import { throttle } from '../boundary/throttle';
import { storeData, storeFit } from './storeData';
import type { FitRecord } from '../boundary/persist/records';
import { KeptFits } from './keptFits';
import { datasetBuffers, copyDataset } from './transfer';

keepErrorFields();

/**
 * Fit progress reaches the page at most 4 times a second: each report
 * re-renders the page's fit panel, main-thread work that on a loaded 2-core
 * machine stretched past 50 ms at 10 a second (bench/results.md, issue 12).
 */
const FIT_PROGRESS_MS = 250;

/**
 * A test build (`vite build --mode testbuild`, as the e2e tests and the browser
 * bench build): Vite replaces MODE at build time, so in the production build
 * every test hook below is dead code, and dropped with the modules only it uses.
 */
const TEST_BUILD = import.meta.env.MODE === 'testbuild';

/** The production build's test hooks: none. */
const productHooks: TestHooks = {
  bench: () => Promise.reject(new Error('benchmarks run only in a test build')),
  simulateFailure: () => {
    throw new Error('fault injection runs only in a test build');
  },
};

let dataset: Dataset | null = null;
/** Fits made here, so the client can refer to one instead of sending it back. */
const kept = new KeptFits();
const controllers = new Map<number, AbortController>();
/** Ids cancelled before their call registered (a cancel can overtake a start). */
const cancelledEarly = new Set<number>();

/** The data set loaded last; a DataMismatchError when there is none (the page then sends its own). */
function loaded(): Dataset {
  if (!dataset) throw dataMismatch('no data set is loaded in the worker');
  return dataset;
}

/** How many (LLM, item) cells of `ds` are observed. */
function observedCells(ds: Dataset): number {
  let n = 0;
  for (const o of ds.observed) n += o;
  return n;
}

function register(callId: number): AbortController {
  const ac = new AbortController();
  if (cancelledEarly.delete(callId)) ac.abort();
  controllers.set(callId, ac);
  return ac;
}

const api = {
  /**
   * Item statistics and quality flags of `fit` on the data set loaded last,
   * computed here so the main thread never blocks on them (hundreds of ms for
   * thousands of items). Rejects with a DataMismatchError if the fit is not of
   * this data set (or none is loaded).
   */
  async derive(fit: FitJson): Promise<DerivedReply> {
    return deriveInWorker(fit, loaded());
  },

  /** `derive` of a fit made here, by its reference; null when it is no longer kept. */
  async deriveKept(ref: number): Promise<DerivedReply | null> {
    const fit = kept.get(ref);
    return fit ? deriveInWorker(fit, loaded()) : null;
  },

  /**
   * The Psychometrics tab's tables of `fit` (item and LLM fit, reliability,
   * classical analysis). Rejects with a DataMismatchError as `derive` does.
   */
  async psych(fit: FitJson): Promise<PsychTables> {
    const t = psychTables(fit, loaded());
    return Comlink.transfer(t, psychBuffers(t));
  },

  /** `psych` of a fit made here, by its reference; null when it is no longer kept. */
  async psychKept(ref: number): Promise<PsychTables | null> {
    const fit = kept.get(ref);
    const t = fit && psychTables(fit, loaded());
    return t ? Comlink.transfer(t, psychBuffers(t)) : null;
  },

  /** Mantel–Haenszel DIF of the loaded data set (DataMismatchError if `req` names other data). */
  async dif(req: DifRequest): Promise<DifReply> {
    return difTable(req, loaded());
  },

  /**
   * Adds a fit made here to the session store (see storeData.ts); its store key,
   * or null when it is no longer kept or could not be stored.
   */
  async storeKept(ref: number, entry: Omit<FitRecord, 'fit'>): Promise<IDBValidKey | null> {
    const fit = kept.get(ref);
    return fit ? storeFit({ ...entry, fit }) : null;
  },

  /** Item banks: new LLMs in their own slot, scoring, adaptive tests (see bank.ts). */
  bank: Comlink.proxy(
    createBankApi({
      register,
      done: (callId) => void controllers.delete(callId),
      calibration: () => dataset,
    }),
  ),

  /** Reads and parses `sources`; on success the data set replaces the previous one. */
  async load(
    sources: LoadSource[],
    opts: LoadOptions,
    onProgress: (p: LoadProgress) => void,
    callId: number,
    /** Also save the data set to the session store (so the main thread need not clone it). */
    store = false,
  ): Promise<LoadResult> {
    const ac = register(callId);
    const t0 = performance.now();
    try {
      const ds = await readSources(sources, opts, onProgress, ac.signal);
      dataset = ds;
      const summary = datasetSummary(ds);
      const seconds = (performance.now() - t0) / 1000;
      const files = sources.map((s) => s.name);
      const storedInWorker = store && (await storeData({ dataset: ds, summary, files, seconds }));
      // The worker keeps its data set; the client gets a transferred copy.
      const copy = copyDataset(ds);
      const result: LoadResult = { dataset: copy, summary, seconds, storedInWorker };
      return Comlink.transfer(result, datasetBuffers(copy));
    } finally {
      controllers.delete(callId);
      release(onProgress);
    }
  },

  /**
   * Fits the current data set, from `resume` if given. With `onCheckpoint`, the
   * fit's checkpoints are stored in the session store here (checkpointStore.ts)
   * and `onCheckpoint` hears each one's step. Resolves with the fit and the
   * reference it is kept under here, once its last checkpoint is stored;
   * rejects with an AbortError when cancelled (and keeps no checkpoint then).
   */
  async fit(
    settings: FitSettings,
    onProgress: (p: FitProgress) => void,
    callId: number,
    resume?: ResumeFrom,
    onCheckpoint?: (c: CheckpointSaved) => void,
    onDeviceLoss?: (d: DeviceLoss) => void,
  ): Promise<{ fit: FitJson; ref: number }> {
    const ac = register(callId);
    const writer =
      onCheckpoint &&
      new CheckpointWriter({ report: (c) => void onCheckpoint(c), signal: ac.signal });
    try {
      if (!dataset) throw new Error('No data is loaded: load a data set before fitting.');
      // Recorded at once: a fit reloaded before its first checkpoint (in its
      // prior-strength search, its warm-up) is offered again with its settings.
      // A resume from a checkpoint keeps that checkpoint until a newer one lands.
      if (writer && !(resume && resume.x.length > 0))
        writer.push({
          x: new Float64Array(0),
          step: 0,
          objective: NaN,
          settings,
          phase: 'start',
          ...(resume?.replaces !== undefined && { replaces: resume.replaces }),
        });
      const picked = await pickEngine(settings.engine);
      const report = throttle((p: FitProgress) => void onProgress(p), FIT_PROGRESS_MS);
      const held = TEST_BUILD
        ? takeSearchStall(ac.signal, observedCells(dataset), (p) => {
            report.push(p);
            report.flush();
          })
        : undefined;
      const engine = held ? held(picked) : picked;
      let last: FitProgress | null = null;
      const afterCheckpoint = TEST_BUILD
        ? takeCheckpointStall(ac.signal, (p) => {
            report.push(p);
            report.flush();
          })
        : undefined;
      const fit = await fitWithRecovery(dataset, settings, {
        signal: ac.signal,
        engine,
        onProgress: (p) => report.push((last = p)),
        beforeLbfgs: TEST_BUILD
          ? takeLbfgsStall(
              ac.signal,
              () => last,
              (p) => {
                report.push(p);
                report.flush();
              },
            )
          : undefined,
        faults: afterCheckpoint?.faults ?? (TEST_BUILD ? takeDeviceLoss : undefined),
        ...(afterCheckpoint && { cadence: afterCheckpoint.cadence }),
        resume,
        onCheckpoint: writer && ((c) => writer.push(c)),
        onDeviceLoss: onDeviceLoss && ((d) => void onDeviceLoss(d)),
      });
      report.flush();
      return { fit, ref: kept.add(fit) };
    } finally {
      controllers.delete(callId);
      release(onProgress);
      if (writer) {
        await writer.flush();
        // A cancelled fit leaves no checkpoint to resume (one may have landed as it
        // stopped), except a continuation: it runs until converged or cancelled, so
        // its steps are kept and offered (client/persist/useSession.ts).
        if (ac.signal.aborted && resume?.replaces === undefined)
          await dropCheckpoint().catch(() => undefined);
        release(onCheckpoint);
      }
    }
  },

  /** Runs one of the paper's evaluations on the current data set (see evaluate.ts). */
  async evaluate(
    req: EvalRequest,
    onProgress: (p: EvalProgressReport) => void,
    callId: number,
  ): Promise<EvalReply> {
    const ac = register(callId);
    try {
      return await runEvaluation(dataset, req, ac.signal, (p) => void onProgress(p));
    } finally {
      controllers.delete(callId);
      release(onProgress);
    }
  },

  /**
   * The benchmark audit report (one HTML file) of a fit of the loaded data:
   * `fit` itself, or the reference of a fit made here (null when no longer
   * kept: the caller then sends the fit). Progress per section.
   */
  async report(
    fit: FitJson | number,
    date: string,
    onProgress: (p: ReportProgress) => void,
    callId: number,
  ): Promise<string | null> {
    const ac = register(callId);
    try {
      const f = typeof fit === 'number' ? kept.get(fit) : fit;
      return f
        ? await reportInWorker(f, loaded(), date, (p) => void onProgress(p), ac.signal)
        : null;
    } finally {
      controllers.delete(callId);
      release(onProgress);
    }
  },

  /**
   * The LLM view's abilities of `fit` (or of a fit made here, by its
   * reference; null when no longer kept): θ from correctness only and from
   * wrong answers only, person fit, and where θ and accuracy disagree.
   * Rejects with a DataMismatchError as `psych` does.
   */
  async llmAbility(fit: FitJson | number, callId: number): Promise<LlmAbilityViews | null> {
    const ac = register(callId);
    try {
      const f = typeof fit === 'number' ? kept.get(fit) : fit;
      if (!f) return null;
      const ds = loaded();
      checkFitOf(f, ds);
      return await llmAbilityViews(f, ds, { signal: ac.signal });
    } finally {
      controllers.delete(callId);
    }
  },

  /** Which engine `choice` would run here, and why. */
  resolveEngine(choice: EngineChoice): Promise<EngineResolution> {
    return resolveChoice(choice);
  },

  /** Replaces the data set (the bridge re-sends it after a restart). */
  useDataset(ds: Dataset): void {
    dataset = ds;
  },

  /** Aborts the call with this id, or the next one to start with it. */
  cancel(callId: number): void {
    const ac = controllers.get(callId);
    if (ac) ac.abort();
    else cancelledEarly.add(callId);
  },

  /** Answers at once: the bridge's liveness check. */
  ping(): true {
    return true;
  },

  // Bench runs and fault injection: a test build only (testHooks.ts).
  ...(TEST_BUILD ? testHooks : productHooks),
};

/** The worker's API as the bridge sees it (imported there as a type only). */
export type WorkerApi = typeof api;

Comlink.expose(api);
