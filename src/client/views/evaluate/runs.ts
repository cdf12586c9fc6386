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
} from '../../../boundary/evaluateProtocol';
import { getBridge, type WorkerBridge } from '../../bridge';
import type { UiError } from '../../state';
import {
  IDLE_TASK,
  TaskRunner,
  taskReducer,
  type TaskEvent,
  type TaskState,
  type TaskStatus,
} from '../../tasks';

/** Set as `data-state` on each evaluation and on the tab; e2e tests wait on it. */
export type RunStatus = TaskStatus;

/** An evaluation as a task (its stage says why a cancelled one stopped), with what it was given and got. */
export interface RunState<K extends EvalKind = EvalKind> extends TaskState<EvalProgressReport> {
  reply: Extract<EvalReply, { kind: K }> | null;
  /** What the run was given, in words (e.g. the fit it read). */
  about: string | null;
  /** The request of the run, as sent. */
  request: Extract<EvalRequest, { kind: K }> | null;
}

function idleRun<K extends EvalKind>(): RunState<K> {
  return { ...IDLE_TASK, reply: null, about: null, request: null };
}

type Runs = { [K in EvalKind]: RunState<K> };

/** Every run idle; one constant, so that snapshots stay equal until something runs. */
const IDLE: Runs = {
  cv: idleRun(),
  external: idleRun(),
  wrong: idleRun(),
  info: idleRun(),
  compress: idleRun(),
  calibrate: idleRun(),
};

function isKind<K extends EvalKind>(r: EvalReply, kind: K): r is Extract<EvalReply, { kind: K }> {
  return r.kind === kind;
}

export class EvalRuns {
  private readonly byData = new WeakMap<Dataset, Runs>();
  private readonly lastKind = new WeakMap<Dataset, EvalKind>();
  private readonly listeners = new Set<() => void>();
  private readonly runner = new TaskRunner<'evaluation'>();
  private current: EvalKind | null = null;

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
    return this.current;
  }

  /** The evaluation started last on `ds`, if any. */
  last(ds: Dataset): EvalKind | null {
    return this.lastKind.get(ds) ?? null;
  }

  /** Records a run that could not start (bad settings) as failed. */
  fail<K extends EvalKind>(ds: Dataset, kind: K, error: UiError): void {
    this.lastKind.set(ds, kind);
    this.set(ds, kind, { ...idleRun<K>(), ...taskReducer(IDLE_TASK, { type: 'failed', error }) });
  }

  /** Runs `req` in the worker; resolves when it has finished, failed or been cancelled. */
  async start<K extends EvalKind>(
    ds: Dataset,
    req: Extract<EvalRequest, { kind: K }>,
    about: string | null = null,
  ): Promise<void> {
    if (this.current) throw new Error(`The ${this.current} evaluation is still running.`);
    const kind: K = req.kind;
    this.current = kind;
    this.lastKind.set(ds, kind);
    const base: RunState<K> = { ...idleRun<K>(), about, request: req };
    const report = (e: TaskEvent<EvalProgressReport>) =>
      this.set(ds, kind, { ...this.get(ds, kind), ...taskReducer(this.get(ds, kind), e) });
    this.set(ds, kind, base);
    try {
      await this.runner.run(
        'evaluation',
        'The evaluation failed',
        report,
        async ({ signal, progress }) => {
          const reply = await this.bridge().evaluate(signal, req, progress);
          if (!isKind(reply, kind))
            throw new Error(`Asked for ${kind}, the worker ran ${reply.kind}.`);
          return reply;
        },
        (reply) => this.set(ds, kind, { ...base, ...taskReducer(base, { type: 'done' }), reply }),
      );
    } finally {
      this.current = null;
      this.emit();
    }
  }

  /** Cancels the running evaluation; `notice` says why. */
  cancel(notice = 'Cancelled.'): void {
    this.runner.cancel('evaluation', notice);
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
