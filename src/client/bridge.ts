import * as Comlink from 'comlink';
import type { Dataset } from '../core/data/types';
import type { EngineChoice } from '../core/engines/types';
import type { FitJson, FitProgress, FitSettings } from '../core/fit/types';
import type { CheckpointSaved, DeviceLoss, ResumeFrom } from '../boundary/checkpoint';
import { keepErrorFields } from '../boundary/errorTransfer';
import type {
  CatResult,
  CatSettings,
  CatSource,
  HoldOutResult,
  ItemBank,
  NewDataInfo,
  ScoreResult,
} from '../boundary/bankProtocol';
import type { DifReply, DifRequest, PsychTables } from '../boundary/psychProtocol';
import type { LlmAbilityViews } from '../core/eval/abilityViews';
import type { EvalProgressReport, EvalReply, EvalRequest } from '../boundary/evaluateProtocol';
import type {
  DerivedReply,
  EngineResolution,
  LoadOptions,
  LoadProgress,
  LoadResult,
  LoadSource,
} from '../boundary/protocol';
import type { WorkerApi } from '../worker/worker';
import type { ReportProgress } from '../report/types';
import { AbortError, abortError, WorkerCrashedError } from './errors';

export { abortError, isAbort, WorkerCrashedError } from './errors';

/** Timings of the bridge's safety nets, in ms. */
export interface BridgeTimings {
  /** How long a cancelled call may take to stop before its worker is replaced. */
  cancelGrace: number;
  /** While calls are pending, the worker is pinged this often... */
  pingEvery: number;
  /** ...and replaced if a ping goes unanswered this long (the worker yields every ~25 ms). */
  pingTimeout: number;
}

const TIMINGS: BridgeTimings = { cancelGrace: 1500, pingEvery: 5000, pingTimeout: 60_000 };

type Api = Comlink.Remote<WorkerApi>;

function spawnWorker(): Worker {
  return new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module' });
}

/**
 * The one owner of the compute worker. Every method takes an AbortSignal first;
 * calls run one at a time. Cancelling sends `cancel(id)` to the worker, which
 * aborts its own AbortController (signals cannot cross comlink). If the worker
 * dies or stops answering, pending calls reject, a fresh worker starts and the
 * last loaded data set is sent to it again, so the user can simply retry.
 */
export class WorkerBridge {
  private worker!: Worker;
  private api!: Api;
  private ready: Promise<unknown> = Promise.resolve();
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 0;
  private readonly pending = new Map<number, (e: Error) => void>();
  private lastDataset: Dataset | null = null;
  /** The worker's reference for each fit it made (and which worker: a restart forgets them). */
  private readonly refs = new WeakMap<FitJson, { worker: Worker; ref: number }>();
  private watchdog: ReturnType<typeof setInterval> | null = null;
  /** Told when the worker had to be replaced (crash, hang, or a cancel it ignored). */
  onRestart: ((reason: string) => void) | null = null;
  timings: BridgeTimings = { ...TIMINGS };

  constructor(private readonly spawn: () => Worker = spawnWorker) {
    keepErrorFields();
    this.start();
  }

  /** Reads and parses files in the worker; the worker keeps the data set for `fit`. */
  async load(
    signal: AbortSignal,
    sources: LoadSource[],
    opts: LoadOptions,
    onProgress: (p: LoadProgress) => void,
    /** Have the worker save the data set to the session store too. */
    store = false,
  ): Promise<LoadResult> {
    const res = await this.call(signal, (api, id) =>
      api.load(sources, opts, Comlink.proxy(onProgress), id, store),
    );
    this.lastDataset = res.dataset;
    return res;
  }

  /**
   * Fits the data set loaded last, from `resume` if given. With `checkpoint`, the
   * worker stores the fit's checkpoints in the session store and `checkpoint`
   * hears the step of each; `deviceLost` hears of a GPU engine it had to leave.
   */
  fit(
    signal: AbortSignal,
    settings: FitSettings,
    onProgress: (p: FitProgress) => void,
    opts: {
      resume?: ResumeFrom;
      checkpoint?: (c: CheckpointSaved) => void;
      deviceLost?: (d: DeviceLoss) => void;
    } = {},
  ): Promise<FitJson> {
    const cp = opts.checkpoint && Comlink.proxy(opts.checkpoint);
    const lost = opts.deviceLost && Comlink.proxy(opts.deviceLost);
    return this.call(signal, async (api, id) => {
      const r = await api.fit(settings, Comlink.proxy(onProgress), id, opts.resume, cp, lost);
      this.refs.set(r.fit, { worker: this.worker, ref: r.ref });
      return r.fit;
    });
  }

  /** The current worker's reference for `fit`, if it made it. */
  private refOf(fit: FitJson): number | null {
    const r = this.refs.get(fit);
    return r && r.worker === this.worker ? r.ref : null;
  }

  /** Hands the worker a data set loaded elsewhere (a restored session); kept across restarts. */
  useDataset(signal: AbortSignal, ds: Dataset): Promise<void> {
    this.lastDataset = ds;
    return this.call(signal, (api) => api.useDataset(ds));
  }

  /** Runs one of the paper's evaluations on the data set loaded last (worker/evaluate.ts). */
  evaluate(
    signal: AbortSignal,
    req: EvalRequest,
    onProgress: (p: EvalProgressReport) => void,
  ): Promise<EvalReply> {
    return this.call<EvalReply>(signal, (api, id) =>
      api.evaluate(req, Comlink.proxy(onProgress), id),
    );
  }

  /** Item statistics and flags of a fit of the loaded data, computed in the worker. */
  derive(signal: AbortSignal, fit: FitJson): Promise<DerivedReply> {
    // A fit the worker made is named, not sent: cloning it is a long main-thread task.
    return this.call<DerivedReply>(signal, async (api) => {
      const ref = this.refOf(fit);
      return (ref !== null && (await api.deriveKept(ref))) || api.derive(fit);
    });
  }

  /** The Psychometrics tab's tables of a fit of the loaded data, computed in the worker. */
  psych(signal: AbortSignal, fit: FitJson): Promise<PsychTables> {
    return this.call(signal, async (api) => {
      const ref = this.refOf(fit);
      return (ref !== null && (await api.psychKept(ref))) || api.psych(fit);
    });
  }

  /** The benchmark audit report (HTML) of a fit of the loaded data, built in the worker; `date` is its one date line. */
  report(
    signal: AbortSignal,
    fit: FitJson,
    date: string,
    onProgress: (p: ReportProgress) => void,
  ): Promise<string> {
    return this.call(signal, async (api, id) => {
      // A fit the worker made is named, not sent; sent when the worker no longer keeps it.
      const ref = this.refOf(fit);
      const named =
        ref === null ? null : await api.report(ref, date, Comlink.proxy(onProgress), id);
      return named ?? (await api.report(fit, date, Comlink.proxy(onProgress), id)) ?? '';
    });
  }

  /** The LLM view's abilities of a fit of the loaded data (core/eval/abilityViews), computed in the worker. */
  llmAbility(signal: AbortSignal, fit: FitJson): Promise<LlmAbilityViews> {
    return this.call(signal, async (api, id) => {
      // A fit the worker made is named, not sent; sent when the worker no longer keeps it.
      const ref = this.refOf(fit);
      const named = ref === null ? null : await api.llmAbility(ref, id);
      return named ?? (await api.llmAbility(fit, id))!;
    });
  }

  /** Mantel–Haenszel DIF of the loaded data, computed in the worker. */
  dif(signal: AbortSignal, req: DifRequest): Promise<DifReply> {
    return this.call(signal, (api) => api.dif(req));
  }

  /**
   * Has the worker add a fit it made to the session store; the store key, or
   * null when the worker cannot (it did not make this fit, or storing failed)
   * and the caller should store it itself. Not queued behind a running task.
   */
  async storeFit(
    signal: AbortSignal,
    entry: { label: string; origin: 'fit' | 'import'; fit: FitJson },
  ): Promise<IDBValidKey | null> {
    const ref = this.refOf(entry.fit);
    if (ref === null) return null;
    // Comlink's mapped type splits the IDBValidKey union; what comes back is the key.
    return this.exec(
      signal,
      async (api) =>
        (await api.storeKept(ref, {
          label: entry.label,
          origin: entry.origin,
        })) as IDBValidKey | null,
    );
  }

  // The item-bank calls (worker/bank.ts), in the same queue as load and fit.

  /** Reads new LLMs' data into the worker's second slot (the calibration data stays). */
  loadNewData(
    signal: AbortSignal,
    sources: LoadSource[],
    opts: LoadOptions,
    onProgress: (p: LoadProgress) => void,
  ): Promise<NewDataInfo> {
    return this.call(signal, (api, id) =>
      api.bank.loadNew(sources, opts, Comlink.proxy(onProgress), id),
    );
  }

  /** Scores the new LLMs against `bank`. */
  scoreNew(signal: AbortSignal, bank: ItemBank): Promise<ScoreResult> {
    return this.call(signal, (api, id) => api.bank.score(bank, id));
  }

  /** Calibrates a bank on the first `nCalibration` LLMs of `sources` and scores the rest. */
  holdOut(
    signal: AbortSignal,
    sources: LoadSource[],
    settings: FitSettings,
    nCalibration: number,
    onStage: (stage: string) => void,
  ): Promise<HoldOutResult> {
    return this.call(signal, (api, id) =>
      api.bank.holdOut(sources, settings, nCalibration, Comlink.proxy(onStage), id),
    );
  }

  /** A simulated adaptive test of one LLM against `bank`. */
  simulateCat(
    signal: AbortSignal,
    bank: ItemBank,
    from: CatSource,
    llm: number,
    settings: CatSettings,
  ): Promise<CatResult> {
    return this.call(signal, (api, id) => api.bank.cat(bank, from, llm, settings, id));
  }

  /** Which engine `choice` runs on this machine, and why. */
  resolveEngine(signal: AbortSignal, choice: EngineChoice): Promise<EngineResolution> {
    // Not queued: the answer is wanted while a long fit runs (the worker yields often).
    return this.exec(signal, (api) => api.resolveEngine(choice));
  }

  /** Makes the worker fail on purpose (see the worker's simulateFailure), for tests of recovery. */
  simulateFailure(
    signal: AbortSignal,
    kind: Parameters<WorkerApi['simulateFailure']>[0],
  ): Promise<void> {
    return this.exec(signal, (api) => api.simulateFailure(kind));
  }

  terminate(): void {
    this.worker.terminate();
    this.failPending(() => abortError('The worker was stopped.'));
  }

  private start(): void {
    const w = this.spawn();
    this.worker = w;
    this.api = Comlink.wrap<WorkerApi>(w);
    const onError = (e: Event) => {
      e.preventDefault();
      const msg = (e as { message?: string }).message || 'unknown error';
      if (w === this.worker) this.restart(`The worker stopped (${msg}).`, WorkerCrashedError);
    };
    w.addEventListener('error', onError);
    w.addEventListener('messageerror', onError);
    const ds = this.lastDataset;
    // A copy, not a transfer: the main thread keeps its own for the views.
    this.ready = ds ? this.api.useDataset(ds).catch(() => undefined) : Promise.resolve();
  }

  private restart(reason: string, ErrorType: new (m: string) => Error): void {
    this.worker.terminate();
    this.failPending(() => new ErrorType(reason));
    this.start();
    this.onRestart?.(reason);
  }

  private failPending(make: () => Error): void {
    const rejects = [...this.pending.values()];
    this.pending.clear();
    for (const reject of rejects) reject(make());
  }

  /** Pings the worker while calls are pending; one that never answers is replaced. */
  private watch(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => {
      if (!this.pending.size) {
        clearInterval(this.watchdog!);
        this.watchdog = null;
        return;
      }
      const w = this.worker;
      let answered = false;
      this.api.ping().then(
        () => (answered = true),
        () => undefined,
      );
      setTimeout(() => {
        if (!answered && w === this.worker && this.pending.size)
          this.restart('The worker stopped answering.', WorkerCrashedError);
      }, this.timings.pingTimeout);
    }, this.timings.pingEvery);
  }

  /** Queues `run` behind earlier calls; a call aborted while queued rejects at once. */
  private call<T>(signal: AbortSignal, run: (api: Api, id: number) => Promise<T>): Promise<T> {
    const turn = this.queue.then(() => this.exec(signal, run));
    this.queue = turn.catch(() => undefined);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(abortError());
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private exec<T>(signal: AbortSignal, run: (api: Api, id: number) => Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(abortError());
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const settle = (f: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
        f();
      };
      const onAbort = () => {
        this.api.cancel(id).catch(() => undefined);
        // A worker busy in one long synchronous step never reads the cancel
        // message; after a grace period it is replaced, which always stops it.
        timer = setTimeout(() => {
          if (!done) this.restart('A cancelled task did not stop in time.', AbortError);
        }, this.timings.cancelGrace);
      };
      this.pending.set(id, (e) => settle(() => reject(e)));
      signal.addEventListener('abort', onAbort, { once: true });
      this.watch();
      this.ready
        .then(() => run(this.api, id))
        .then(
          (v) => settle(() => resolve(v)),
          (e) => settle(() => reject(e)),
        );
    });
  }
}

let shared: WorkerBridge | null = null;

/** The app's single bridge, created on first use. */
export function getBridge(): WorkerBridge {
  shared ??= new WorkerBridge();
  return shared;
}
