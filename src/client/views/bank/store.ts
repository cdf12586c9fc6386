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
} from '../../../boundary/bankProtocol';
import { IDLE_TASK, TaskRunner, taskReducer, type TaskEvent, type TaskState } from '../../tasks';

/** The tab's independent tasks; each has its own state and error. */
export type TaskName = 'bank' | 'score' | 'cat' | 'select' | 'interactive';

/** A task of the tab (its `status` is the `data-state` of its section). */
export type Task = TaskState;

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

export const initialBankState: BankUiState = {
  loaded: null,
  newData: null,
  score: null,
  cat: null,
  interactive: null,
  selected: null,
  tasks: {
    bank: IDLE_TASK,
    score: IDLE_TASK,
    cat: IDLE_TASK,
    select: IDLE_TASK,
    interactive: IDLE_TASK,
  },
  last: null,
};

export type BankAction =
  | { type: 'task'; task: TaskName; event: TaskEvent }
  | { type: 'bankLoaded'; bank: ItemBank; label: string }
  | { type: 'useFit' }
  | { type: 'newData'; info: NewDataInfo }
  | { type: 'scored'; entry: ScoredEntry }
  | { type: 'heldOut'; bank: ItemBank; label: string; info: NewDataInfo; result: ScoreResult }
  | { type: 'catDone'; entry: CatEntry }
  | { type: 'interactive'; entry: InteractiveEntry | null }
  | { type: 'selected'; entry: SelectedEntry };

const onTask = (s: BankUiState, name: TaskName, event: TaskEvent): BankUiState => ({
  ...s,
  tasks: { ...s.tasks, [name]: taskReducer(s.tasks[name], event) },
  last: event.type === 'start' ? name : s.last,
});
const done = (s: BankUiState, name: TaskName) => onTask(s, name, { type: 'done' });

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
    case 'task':
      return onTask(s, a.task, a.event);
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

const runner = new TaskRunner<TaskName>();

/**
 * Runs `work` as task `name`: a running task of that name is cancelled first;
 * the task ends done (after `onDone` dispatches its result), cancelled or
 * failed with the error shown under `title`.
 */
export function runTask<T>(
  name: TaskName,
  title: string,
  work: (signal: AbortSignal, stage: (s: string) => void) => Promise<T>,
  onDone: (v: T) => void,
): Promise<void> {
  return runner.run(
    name,
    title,
    (event) => dispatchBank({ type: 'task', task: name, event }),
    (ctx) => work(ctx.signal, ctx.stage),
    onDone,
  );
}

/** Cancels task `name` if it is running. */
export function cancelTask(name: TaskName): void {
  runner.cancel(name);
}
