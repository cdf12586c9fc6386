/** The app's state and its reducer: what is loaded, what is running, which fits exist. */
import type { ObjectivePoint } from '../charts/objectiveCurve';
import type { Dataset } from '../core/data/types';
import type { FitJson, FitProgress, FitSettings } from '../core/fit/types';
import type { DatasetSummary } from '../core/data/summary';
import type { LoadProgress } from '../boundary/protocol';

/** Set as `data-state` on the root; e2e tests wait on it. */
export type Phase = 'empty' | 'loading' | 'loaded' | 'fitting' | 'fitted' | 'error';

/** An error as the user sees it; `file`/`line`/`column` when the input was at fault. */
export interface UiError {
  title: string;
  message: string;
  file?: string;
  line?: number;
  column?: string | number;
}

export interface LoadedData {
  dataset: Dataset;
  summary: DatasetSummary;
  files: string[];
  seconds: number;
  /** The worker saved this data set to the session store itself (see worker/storeData.ts). */
  storedInWorker?: boolean;
}

export interface FitEntry {
  id: number;
  label: string;
  fit: FitJson;
  /** 'import' when restored from a fit.json rather than fitted here. */
  origin: 'fit' | 'import';
}

export interface RunningFit {
  settings: FitSettings;
  /** A "Continue fitting" run: it goes on until converged (its step cap is not shown). */
  untilConverged?: boolean;
  progress: FitProgress | null;
  trace: ObjectivePoint[];
}

export interface AppState {
  phase: Phase;
  data: LoadedData | null;
  loading: { files: string[]; progress: LoadProgress | null } | null;
  running: RunningFit | null;
  fits: FitEntry[];
  shownFit: number | null;
  error: UiError | null;
  notice: string | null;
  /** The id the next fit entry gets (state, not a module counter, so the reducer is pure). */
  nextId: number;
}

export const initialState: AppState = {
  phase: 'empty',
  data: null,
  loading: null,
  running: null,
  fits: [],
  shownFit: null,
  error: null,
  notice: null,
  nextId: 1,
};

export type Action =
  | { type: 'loadStart'; files: string[] }
  | { type: 'loadProgress'; progress: LoadProgress }
  | { type: 'loadDone'; data: LoadedData }
  | { type: 'fitStart'; settings: FitSettings; untilConverged?: boolean }
  | { type: 'fitProgress'; progress: FitProgress }
  | {
      type: 'fitDone';
      fit: FitJson;
      origin: FitEntry['origin'];
      label?: string;
      /** The id of a fit this one replaces in the list (a continuation of it). */
      replaces?: number;
    }
  | { type: 'cancelled'; notice: string }
  | { type: 'failed'; error: UiError }
  | { type: 'showFit'; id: number }
  | { type: 'removeFit'; id: number }
  | { type: 'dismiss' }
  | { type: 'notice'; notice: string }
  /** Back to a first visit's empty state (the saved session was cleared). */
  | { type: 'reset'; notice: string };

/** The resting phase for what is loaded: fitted if a fit exists, else loaded or empty. */
function settled(s: Pick<AppState, 'data' | 'fits'>): Phase {
  return s.fits.length ? 'fitted' : s.data ? 'loaded' : 'empty';
}

export function reducer(s: AppState, a: Action): AppState {
  switch (a.type) {
    case 'loadStart':
      return {
        ...s,
        phase: 'loading',
        loading: { files: a.files, progress: null },
        error: null,
        notice: null,
      };
    case 'loadProgress':
      return s.loading ? { ...s, loading: { ...s.loading, progress: a.progress } } : s;
    case 'loadDone':
      // Fits belong to the data they were fitted on, so new data clears them.
      return { ...s, phase: 'loaded', data: a.data, loading: null, fits: [], shownFit: null };
    case 'fitStart':
      return {
        ...s,
        phase: 'fitting',
        running: {
          settings: a.settings,
          progress: null,
          trace: [],
          ...(a.untilConverged && { untilConverged: true }),
        },
        error: null,
        notice: null,
      };
    case 'fitProgress': {
      if (!s.running) return s;
      const p = a.progress;
      const trace = Number.isFinite(p.objective)
        ? [...s.running.trace, { step: p.step, objective: p.objective }]
        : s.running.trace;
      return { ...s, running: { ...s.running, progress: p, trace } };
    }
    case 'fitDone': {
      const id = s.nextId;
      const f = a.fit;
      const label = a.label ?? `#${id} ${f.model} · ${f.optimizer} · ${f.engine}`;
      const entry = { id, label, fit: f, origin: a.origin };
      const at = a.replaces === undefined ? -1 : s.fits.findIndex((e) => e.id === a.replaces);
      const fits = at < 0 ? [...s.fits, entry] : s.fits.map((e, k) => (k === at ? entry : e));
      return { ...s, phase: 'fitted', running: null, fits, shownFit: id, nextId: id + 1 };
    }
    case 'cancelled':
      return { ...s, phase: settled(s), loading: null, running: null, notice: a.notice };
    case 'failed':
      return { ...s, phase: 'error', loading: null, running: null, error: a.error };
    case 'showFit':
      return { ...s, shownFit: a.id };
    case 'removeFit': {
      const fits = s.fits.filter((f) => f.id !== a.id);
      const shownFit = s.shownFit === a.id ? (fits.at(-1)?.id ?? null) : s.shownFit;
      const phase =
        s.phase === 'fitted' || s.phase === 'loaded' ? settled({ ...s, fits }) : s.phase;
      return { ...s, fits, shownFit, phase };
    }
    case 'dismiss':
      return { ...s, error: null, notice: null, phase: s.phase === 'error' ? settled(s) : s.phase };
    case 'notice':
      return { ...s, notice: a.notice };
    case 'reset':
      return { ...initialState, notice: a.notice, nextId: s.nextId };
  }
}
