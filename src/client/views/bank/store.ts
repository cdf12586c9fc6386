/**
 * State of the Bank & CAT tab. It lives outside React (one store per page) so
 * that a loaded bank, scores and test results survive switching tabs and fits;
 * results remember which bank they were computed against (`against`: the
 * loaded bank or the fit object) and are shown only while it is active.
 */
import { useSyncExternalStore } from 'react';
import type { CatSession, CatStep, CatStop } from '../../../core/bank/cat';
import type { SelectedItem } from '../../../core/bank/select';
import type {
  CatResult,
  CatSource,
  ItemBank,
  NewDataInfo,
  ScoreResult,
} from '../../../shared/bankProtocol';
import { isAbort } from '../../bridge';
import { toUiError } from '../../errors';
import type { UiError } from '../../state';

/** The tab's independent tasks; each has its own state and error. */
export type TaskName = 'bank' | 'score' | 'cat' | 'select' | 'interactive';
/** Set as `data-state` on the panel and its sections; e2e tests wait on it. */
export type TaskState = 'idle' | 'running' | 'done' | 'error';

export interface Task {
  state: TaskState;
  error: UiError | null;
  /** What a running task is doing, or what a finished one says ('Cancelled.'). */
  stage: string | null;
}

export interface ScoredEntry {
  result: ScoreResult;
  against: object;
}

export interface CatEntry {
  result: CatResult;
  from: CatSource;
  /** θ of the same LLM from all its responses (score or fit), when known. */
  reference: number | null;
  against: object;
}

export interface InteractiveEntry {
  session: CatSession;
  steps: CatStep[];
  next: string | null;
  stopped: CatStop | null;
  against: object;
}

export interface SelectedEntry {
  items: SelectedItem[];
  range: [number, number];
  against: object;
}

export interface BankUiState {
  /** A bank from a file or the hold-out; null while the shown fit is the bank. */
  loaded: { bank: ItemBank; label: string } | null;
  /** The LLMs in the worker's new-data slot. */
  newData: NewDataInfo | null;
  score: ScoredEntry | null;
  cat: CatEntry | null;
  interactive: InteractiveEntry | null;
  /** A fixed (non-adaptive) tiny benchmark. */
  selected: SelectedEntry | null;
  tasks: Record<TaskName, Task>;
  /** The task started last: its state is the panel's. */
  last: TaskName | null;
}

const IDLE: Task = { state: 'idle', error: null, stage: null };

export const initialBankState: BankUiState = {
  loaded: null,
  newData: null,
  score: null,
  cat: null,
  interactive: null,
  selected: null,
  tasks: { bank: IDLE, score: IDLE, cat: IDLE, select: IDLE, interactive: IDLE },
  last: null,
};

export type BankAction =
  | { type: 'start'; task: TaskName; stage?: string }
  | { type: 'stage'; task: TaskName; stage: string }
  | { type: 'fail'; task: TaskName; error: UiError }
  | { type: 'cancelled'; task: TaskName }
  | { type: 'done'; task: TaskName; stage?: string }
  | { type: 'bankLoaded'; bank: ItemBank; label: string }
  | { type: 'useFit' }
  | { type: 'newData'; info: NewDataInfo }
  | { type: 'scored'; entry: ScoredEntry }
  | { type: 'heldOut'; bank: ItemBank; label: string; info: NewDataInfo; result: ScoreResult }
  | { type: 'catDone'; entry: CatEntry }
  | { type: 'interactive'; entry: InteractiveEntry | null }
  | { type: 'selected'; entry: SelectedEntry };

const setTask = (s: BankUiState, name: TaskName, t: Task): BankUiState => ({
  ...s,
  tasks: { ...s.tasks, [name]: t },
});
const done = (s: BankUiState, name: TaskName, stage: string | null = null) =>
  setTask(s, name, { state: 'done', error: null, stage });

/** A new bank makes earlier scores and tests stale: they are dropped. */
const freshBank = (s: BankUiState): BankUiState => ({
  ...s,
  score: null,
  cat: null,
  interactive: null,
  selected: null,
});

export function bankReducer(s: BankUiState, a: BankAction): BankUiState {
  switch (a.type) {
    case 'start':
      return {
        ...setTask(s, a.task, { state: 'running', error: null, stage: a.stage ?? null }),
        last: a.task,
      };
    case 'stage':
      return s.tasks[a.task].state === 'running'
        ? setTask(s, a.task, { ...s.tasks[a.task], stage: a.stage })
        : s;
    case 'fail':
      return setTask(s, a.task, { state: 'error', error: a.error, stage: null });
    case 'cancelled':
      return setTask(s, a.task, { state: 'idle', error: null, stage: 'Cancelled.' });
    case 'done':
      return done(s, a.task, a.stage);
    case 'bankLoaded':
      return done(freshBank({ ...s, loaded: { bank: a.bank, label: a.label } }), 'bank');
    case 'useFit':
      return done(freshBank({ ...s, loaded: null }), 'bank');
    case 'newData':
      return { ...s, newData: a.info, score: null };
    case 'scored':
      return done({ ...s, score: a.entry }, 'score');
    case 'heldOut':
      return done(
        {
          ...freshBank(s),
          loaded: { bank: a.bank, label: a.label },
          newData: a.info,
          score: { result: a.result, against: a.bank },
        },
        'score',
      );
    case 'catDone':
      return done({ ...s, cat: a.entry }, 'cat');
    case 'interactive':
      return { ...s, interactive: a.entry };
    case 'selected':
      return done({ ...s, selected: a.entry }, 'select');
  }
}

let state = initialBankState;
const listeners = new Set<() => void>();

export function dispatchBank(a: BankAction): void {
  state = bankReducer(state, a);
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

/** The tab's state; re-renders on every change. */
export function useBankState(): BankUiState {
  return useSyncExternalStore(subscribe, () => state);
}

const controllers = new Map<TaskName, AbortController>();

/**
 * Runs `work` as task `name`: a running task of that name is cancelled first;
 * the task ends done (after `onDone` dispatches its result), cancelled or
 * failed with the error shown under `title`.
 */
export async function runTask<T>(
  name: TaskName,
  title: string,
  work: (signal: AbortSignal, stage: (s: string) => void) => Promise<T>,
  onDone: (v: T) => void,
): Promise<void> {
  controllers.get(name)?.abort();
  const ac = new AbortController();
  controllers.set(name, ac);
  const live = () => controllers.get(name) === ac;
  dispatchBank({ type: 'start', task: name });
  try {
    const v = await work(ac.signal, (stage) => {
      if (live()) dispatchBank({ type: 'stage', task: name, stage });
    });
    if (live()) onDone(v);
  } catch (e) {
    if (!live()) return;
    if (isAbort(e)) dispatchBank({ type: 'cancelled', task: name });
    else dispatchBank({ type: 'fail', task: name, error: toUiError(e, title) });
  } finally {
    if (live()) controllers.delete(name);
  }
}

/** Cancels task `name` if it is running. */
export function cancelTask(name: TaskName): void {
  controllers.get(name)?.abort();
}
