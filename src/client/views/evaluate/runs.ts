/**
 * The Evaluate tab's runs: one state per evaluation and data set, kept outside
 * React so that a run goes on (and its result stays) while the user looks at
 * other tabs. One evaluation runs at a time; the bridge queues it behind any
 * load or fit, and the app cancels it when a load or fit starts.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { Dataset } from '../../../core/data/types';
import type {
  EvalKind,
  EvalProgressReport,
  EvalReply,
  EvalRequest,
} from '../../../shared/evaluateProtocol';
import { getBridge, isAbort, type WorkerBridge } from '../../bridge';
import { toUiError } from '../../errors';
import type { UiError } from '../../state';

/** Set as `data-state` on each evaluation and on the tab; e2e tests wait on it. */
export type RunStatus = 'idle' | 'running' | 'done' | 'error' | 'cancelled';

export interface RunState<K extends EvalKind = EvalKind> {
  status: RunStatus;
  progress: EvalProgressReport | null;
  reply: Extract<EvalReply, { kind: K }> | null;
  error: UiError | null;
  /** Why a cancelled run stopped. */
  notice: string | null;
  /** What the run was given, in words (e.g. the fit it read). */
  about: string | null;
  /** The request of the run, as sent. */
  request: Extract<EvalRequest, { kind: K }> | null;
}

function idle<K extends EvalKind>(): RunState<K> {
  return {
    status: 'idle',
    progress: null,
    reply: null,
    error: null,
    notice: null,
    about: null,
    request: null,
  };
}

type Runs = { [K in EvalKind]: RunState<K> };

/** Every run idle; one constant, so that snapshots stay equal until something runs. */
const IDLE: Runs = {
  cv: idle(),
  external: idle(),
  wrong: idle(),
  info: idle(),
  compress: idle(),
  calibrate: idle(),
};

function isKind<K extends EvalKind>(r: EvalReply, kind: K): r is Extract<EvalReply, { kind: K }> {
  return r.kind === kind;
}

export class EvalRuns {
  private readonly byData = new WeakMap<Dataset, Runs>();
  private readonly lastKind = new WeakMap<Dataset, EvalKind>();
  private readonly listeners = new Set<() => void>();
  private current: { kind: EvalKind; ac: AbortController; notice: string } | null = null;

  /** `bridge` gives the worker bridge (the app's; tests pass a fake). */
  constructor(private readonly bridge: () => Pick<WorkerBridge, 'evaluate'> = getBridge) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get<K extends EvalKind>(ds: Dataset, kind: K): RunState<K> {
    return (this.byData.get(ds) ?? IDLE)[kind];
  }

  /** The evaluation running now, if any. */
  running(): EvalKind | null {
    return this.current?.kind ?? null;
  }

  /** The evaluation started last on `ds`, if any. */
  last(ds: Dataset): EvalKind | null {
    return this.lastKind.get(ds) ?? null;
  }

  /** Records a run that could not start (bad settings) as failed. */
  fail<K extends EvalKind>(ds: Dataset, kind: K, error: UiError): void {
    this.lastKind.set(ds, kind);
    this.set(ds, kind, { ...idle<K>(), status: 'error', error });
  }

  /** Runs `req` in the worker; resolves when it has finished, failed or been cancelled. */
  async start<K extends EvalKind>(
    ds: Dataset,
    req: Extract<EvalRequest, { kind: K }>,
    about: string | null = null,
  ): Promise<void> {
    if (this.current) throw new Error(`The ${this.current.kind} evaluation is still running.`);
    const kind: K = req.kind;
    const ac = new AbortController();
    const run = { kind, ac, notice: 'Cancelled.' };
    this.current = run;
    this.lastKind.set(ds, kind);
    const base: RunState<K> = { ...idle<K>(), status: 'running', about, request: req };
    this.set(ds, kind, base);
    try {
      const reply = await this.bridge().evaluate(ac.signal, req, (progress) => {
        if (this.current === run) this.set(ds, kind, { ...base, progress });
      });
      if (!isKind(reply, kind)) throw new Error(`Asked for ${kind}, the worker ran ${reply.kind}.`);
      this.set(ds, kind, { ...base, status: 'done', reply });
    } catch (e) {
      if (isAbort(e)) this.set(ds, kind, { ...base, status: 'cancelled', notice: run.notice });
      else
        this.set(ds, kind, {
          ...base,
          status: 'error',
          error: toUiError(e, 'The evaluation failed'),
        });
    } finally {
      if (this.current === run) this.current = null;
      this.emit();
    }
  }

  /** Cancels the running evaluation; `notice` says why. */
  cancel(notice = 'Cancelled.'): void {
    if (!this.current) return;
    this.current.notice = notice;
    this.current.ac.abort();
  }

  private set<K extends EvalKind>(ds: Dataset, kind: K, state: RunState<K>): void {
    this.byData.set(ds, { ...(this.byData.get(ds) ?? IDLE), [kind]: state });
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

/** The app's evaluation runs. */
export const evalRuns = new EvalRuns();

export function useEvalRun<K extends EvalKind>(ds: Dataset, kind: K): RunState<K> {
  return useSyncExternalStore(evalRuns.subscribe, () => evalRuns.get(ds, kind));
}

export function useRunningEvaluation(): EvalKind | null {
  return useSyncExternalStore(evalRuns.subscribe, () => evalRuns.running());
}

/** The status of the evaluation started last on `ds` ('idle' before any). */
export function useLastStatus(ds: Dataset): RunStatus {
  return useSyncExternalStore(evalRuns.subscribe, () => {
    const kind = evalRuns.last(ds);
    return kind ? evalRuns.get(ds, kind).status : 'idle';
  });
}

/** One task at a time: a load or fit that starts cancels the running evaluation. */
export function useCancelEvaluationsWhen(busy: boolean): void {
  useEffect(() => {
    if (busy) evalRuns.cancel('Cancelled: a load or fit started.');
  }, [busy]);
}
