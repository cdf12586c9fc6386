/**
 * The one model of a cancellable task on the client: loading, fitting, the
 * Bank & CAT calls and the Evaluate runs all report through it. A task's state
 * is plain data changed by a pure reducer; a `TaskRunner` owns the
 * AbortControllers and turns a piece of async work into those events.
 */
import { isAbort } from './bridge';
import { toUiError } from './errors';
import type { UiError } from './state';

/** Set as `data-state` where a task is shown; e2e tests wait on it. */
export type TaskStatus = 'idle' | 'running' | 'done' | 'error' | 'cancelled';

export interface TaskState<P = never> {
  status: TaskStatus;
  /** What a running task does now, or what a finished or cancelled one said. */
  stage: string | null;
  /** The last progress report of a running task. */
  progress: P | null;
  error: UiError | null;
}

export type TaskEvent<P = never> =
  | { type: 'start'; stage?: string }
  | { type: 'stage'; stage: string }
  | { type: 'progress'; progress: P }
  | { type: 'done'; stage?: string }
  | { type: 'cancelled'; notice: string }
  | { type: 'failed'; error: UiError };

/** A task that has not run. One constant, so snapshots stay equal until something runs. */
export const IDLE_TASK: TaskState<never> = {
  status: 'idle',
  stage: null,
  progress: null,
  error: null,
};

export function idleTask<P>(): TaskState<P> {
  return IDLE_TASK;
}

/** The next state of a task; reports that arrive after it stopped running are dropped. */
export function taskReducer<P>(t: TaskState<P>, e: TaskEvent<P>): TaskState<P> {
  switch (e.type) {
    case 'start':
      return { status: 'running', stage: e.stage ?? null, progress: null, error: null };
    case 'stage':
      return t.status === 'running' ? { ...t, stage: e.stage } : t;
    case 'progress':
      return t.status === 'running' ? { ...t, progress: e.progress } : t;
    case 'done':
      return { status: 'done', stage: e.stage ?? null, progress: null, error: null };
    case 'cancelled':
      return { status: 'cancelled', stage: e.notice, progress: null, error: null };
    case 'failed':
      return { status: 'error', stage: null, progress: null, error: e.error };
  }
}

/** What `run` hands the work: its signal and a way to report while it is still the live run. */
export interface TaskContext<P> {
  signal: AbortSignal;
  /** The title a failure from here on is shown under (a task of several steps). */
  failAs(title: string): void;
  /** False once a newer run of the same key started (or this one was cancelled). */
  live(): boolean;
  stage(stage: string): void;
  progress(progress: P): void;
}

/**
 * Runs tasks by key, one at a time per key: starting a task cancels the running
 * one of the same key, whose later reports are then dropped. Cancelling ends a
 * task 'cancelled' with the notice given; any other throw ends it 'error'.
 */
export class TaskRunner<K> {
  private readonly controllers = new Map<K, { ac: AbortController; notice: string }>();

  /**
   * Runs `work` as the task of `key`. When it finishes while still live,
   * `onDone` gets its value (by default the task just ends 'done').
   */
  async run<T, P = never>(
    key: K,
    title: string,
    report: (e: TaskEvent<P>) => void,
    work: (ctx: TaskContext<P>) => Promise<T>,
    onDone: (value: T) => void = () => report({ type: 'done' }),
  ): Promise<void> {
    this.controllers.get(key)?.ac.abort();
    const run = { ac: new AbortController(), notice: 'Cancelled.' };
    this.controllers.set(key, run);
    const current = () => this.controllers.get(key) === run;
    const live = () => current() && !run.ac.signal.aborted;
    report({ type: 'start' });
    let failTitle = title;
    try {
      const value = await work({
        signal: run.ac.signal,
        failAs: (t) => void (failTitle = t),
        live,
        stage: (stage) => live() && report({ type: 'stage', stage }),
        progress: (progress) => live() && report({ type: 'progress', progress }),
      });
      if (current()) onDone(value);
    } catch (e) {
      if (!current()) return;
      if (isAbort(e)) report({ type: 'cancelled', notice: run.notice });
      else report({ type: 'failed', error: toUiError(e, failTitle) });
    } finally {
      if (current()) this.controllers.delete(key);
    }
  }

  /** Cancels the task of `key` if one runs; `notice` says why. */
  cancel(key: K, notice = 'Cancelled.'): void {
    const run = this.controllers.get(key);
    if (!run) return;
    run.notice = notice;
    run.ac.abort();
  }

  /** Whether a task of `key` runs now. */
  running(key: K): boolean {
    return this.controllers.has(key);
  }
}
