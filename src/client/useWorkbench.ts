/**
 * The app's verbs (load files, load the demo, fit, cancel) wired to the worker
 * bridge and the reducer. One task runs at a time: starting one cancels the last.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { FitProgress, FitSettings } from '../core/fit/types';
import type { FitCheckpointRecord, ResumeFrom } from '../shared/checkpoint';
import type { LoadOptions, LoadSource } from '../shared/protocol';
import { getBridge, isAbort } from './bridge';
import type { NamedFile } from './dropped';
import { alignFit, looksLikeFitJson, parseFitJson } from './fitio';
import { toUiError } from './errors';
import { initialState, reducer, type AppState, type FitEntry, type LoadedData } from './state';

/** The embedded demo: real NAEP data (see public/demo/README.md). */
export const DEMO_FILES = ['econ-reading.wide.csv', 'econ-reading.items.csv'];

export interface Workbench {
  state: AppState;
  loadFiles(files: NamedFile[], opts?: LoadOptions): Promise<void>;
  loadDemo(): Promise<void>;
  /** Fits; with `resume`, warm-starts from a checkpoint instead of the documented start. */
  fit(settings: FitSettings, resume?: ResumeFrom): Promise<void>;
  /** Shows a saved session's data and fits, and hands the data to the worker. */
  restore(data: LoadedData, fits: Pick<FitEntry, 'label' | 'origin' | 'fit'>[]): Promise<void>;
  /** Back to the empty state, with a notice. */
  reset(notice: string): void;
  cancel(): void;
  showFit(id: number): void;
  removeFit(id: number): void;
  dismiss(): void;
}

export function useWorkbench(
  settingsForDemo: FitSettings,
  onCheckpoint?: (c: FitCheckpointRecord) => void,
): Workbench {
  const [state, dispatch] = useReducer(reducer, initialState);
  const checkpointTo = useRef(onCheckpoint);
  useEffect(() => {
    checkpointTo.current = onCheckpoint;
  }, [onCheckpoint]);
  const current = useRef<AbortController | null>(null);
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);

  useEffect(() => {
    getBridge().onRestart = (reason) =>
      dispatch({ type: 'notice', notice: `${reason} A fresh worker has your data; please retry.` });
  }, []);

  /** Starts a task: cancels the running one and returns a guard for dispatches. */
  const begin = useCallback(() => {
    current.current?.abort();
    const ac = new AbortController();
    current.current = ac;
    return { signal: ac.signal, live: () => current.current === ac };
  }, []);

  const fail = useCallback((e: unknown, title: string, live: () => boolean) => {
    if (!live()) return;
    if (isAbort(e)) dispatch({ type: 'cancelled', notice: 'Cancelled.' });
    else dispatch({ type: 'failed', error: toUiError(e, title) });
  }, []);

  const runFit = useCallback(
    async (settings: FitSettings, task = begin(), resume?: ResumeFrom) => {
      dispatch({ type: 'fitStart', settings });
      try {
        const onProgress = (progress: FitProgress) => {
          if (task.live()) dispatch({ type: 'fitProgress', progress });
        };
        const checkpoint = (c: FitCheckpointRecord) => {
          if (task.live()) checkpointTo.current?.(c);
        };
        const fit = await getBridge().fit(task.signal, settings, onProgress, {
          resume,
          checkpoint,
        });
        if (!task.live()) return;
        dispatch({ type: 'fitDone', fit, origin: 'fit' });
        // An engine that lost its GPU device mid-fit: say where the fit went on.
        const lost = fit.notes.find((n) => /device (was )?lost/i.test(n));
        if (lost) dispatch({ type: 'notice', notice: lost });
      } catch (e) {
        fail(e, 'The fit failed', task.live);
      }
    },
    [begin, fail],
  );

  /** Loads data sources (if any) in the worker, then restores any fit files against them. */
  const runLoad = useCallback(
    async (
      sources: LoadSource[],
      fitFiles: { name: string; text: string }[],
      opts: LoadOptions,
      task: ReturnType<typeof begin>,
    ): Promise<boolean> => {
      let ds = latest.current.data?.dataset ?? null;
      if (sources.length) {
        const names = sources.map((s) => s.name);
        dispatch({ type: 'loadStart', files: names });
        try {
          const res = await getBridge().load(task.signal, sources, opts, (progress) => {
            if (task.live()) dispatch({ type: 'loadProgress', progress });
          });
          if (!task.live()) return false;
          ds = res.dataset;
          const data = { dataset: ds, summary: res.summary, files: names, seconds: res.seconds };
          dispatch({ type: 'loadDone', data });
        } catch (e) {
          fail(e, 'Could not load the data', task.live);
          return false;
        }
      }
      for (const f of fitFiles) {
        try {
          if (!ds) throw new Error(`${f.name}: load the data this fit belongs to together with it`);
          const fit = alignFit(parseFitJson(f.text, f.name), ds, f.name);
          dispatch({ type: 'fitDone', fit, origin: 'import', label: `${f.name} (${fit.model})` });
        } catch (e) {
          dispatch({ type: 'failed', error: toUiError(e, `Could not restore ${f.name}`) });
          return false;
        }
      }
      return true;
    },
    [fail],
  );

  const loadFiles = useCallback(
    async (files: NamedFile[], opts: LoadOptions = {}) => {
      if (!files.length) return;
      const task = begin();
      const sources: LoadSource[] = [];
      const fitFiles: { name: string; text: string }[] = [];
      for (const { file, name } of files) {
        if (/\.json$/i.test(name)) {
          const text = await file.text();
          if (looksLikeFitJson(name, text)) {
            fitFiles.push({ name, text });
            continue;
          }
        }
        sources.push({ name, blob: file });
      }
      await runLoad(sources, fitFiles, opts, task);
    },
    [begin, runLoad],
  );

  const loadDemo = useCallback(async () => {
    const task = begin();
    const base = new URL(`${import.meta.env.BASE_URL}demo/`, document.baseURI);
    const sources = DEMO_FILES.map((name) => ({ name, url: new URL(name, base).href }));
    if (await runLoad(sources, [], {}, task)) await runFit(settingsForDemo, task);
  }, [begin, runLoad, runFit, settingsForDemo]);

  const cancel = useCallback(() => current.current?.abort(), []);

  const restore = useCallback(
    async (data: LoadedData, fits: Pick<FitEntry, 'label' | 'origin' | 'fit'>[]) => {
      const task = begin();
      dispatch({ type: 'loadDone', data });
      for (const f of fits) dispatch({ type: 'fitDone', ...f });
      try {
        await getBridge().useDataset(task.signal, data.dataset);
      } catch (e) {
        fail(e, 'Could not hand the restored data to the worker', task.live);
      }
    },
    [begin, fail],
  );

  const reset = useCallback((notice: string) => {
    current.current?.abort();
    dispatch({ type: 'reset', notice });
  }, []);

  return useMemo(
    () => ({
      state,
      loadFiles,
      loadDemo,
      fit: (s: FitSettings, resume?: ResumeFrom) => runFit(s, undefined, resume),
      restore,
      reset,
      cancel,
      showFit: (id: number) => dispatch({ type: 'showFit', id }),
      removeFit: (id: number) => dispatch({ type: 'removeFit', id }),
      dismiss: () => dispatch({ type: 'dismiss' }),
    }),
    [state, loadFiles, loadDemo, runFit, restore, reset, cancel],
  );
}
