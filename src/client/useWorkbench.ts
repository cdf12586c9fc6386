/**
 * The app's verbs (load files, load the demo, fit, cancel) wired to the worker
 * bridge and the reducer. One task runs at a time: starting one cancels the last.
 */
import { useCallback, useEffect, useMemo, useReducer, useState, type Dispatch } from 'react';
import type { FitSettings } from '../core/fit/types';
import type { CheckpointSaved, ResumeFrom } from '../boundary/checkpoint';
import type { LoadOptions } from '../boundary/protocol';
import { getBridge } from './bridge';
import type { NamedFile } from './dropped';
import { continuation } from './continuation';
import { AUTO_FIT_SECONDS, estimateFitSeconds } from './fitEstimate';
import {
  initialState,
  reducer,
  type Action,
  type AppState,
  type FitEntry,
  type LoadedData,
} from './state';
import { TaskRunner, type TaskContext, type TaskEvent } from './tasks';
import { useLatest } from './useLatest';
import { fitTask, loadTask, splitDropped } from './workbenchTasks';

/** The embedded demo: real NAEP data (see public/demo/README.md). */
export const DEMO_FILES = ['econ-reading.wide.csv', 'econ-reading.items.csv'];

export interface Workbench {
  state: AppState;
  loadFiles(files: NamedFile[], opts?: LoadOptions): Promise<void>;
  loadDemo(): Promise<void>;
  /** Fits; with `resume`, warm-starts from a checkpoint instead of the documented start. */
  fit(settings: FitSettings, resume?: ResumeFrom): Promise<void>;
  /**
   * Continues a fit that stopped before converging, from its own parameters and
   * settings, with L-BFGS until converged (or cancelled); the result replaces it.
   */
  continueFit(entry: FitEntry): Promise<void>;
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
  /** Told of each checkpoint the worker stored (or could not store) for a running fit. */
  onCheckpoint?: (c: CheckpointSaved) => void,
  /** Fit the default model right after a load when that is quick (off for tests: `?noautofit`). */
  autoFit = true,
): Workbench {
  const [state, dispatch] = useReducer(reducer, initialState);
  const checkpointTo = useLatest(onCheckpoint);
  const latest = useLatest(state);
  const { task, cancel } = useMainTask(dispatch);
  const env = useMemo(() => ({ dispatch, latest, checkpointTo }), [latest, checkpointTo]);

  useEffect(() => {
    getBridge().onRestart = (reason) =>
      dispatch({ type: 'notice', notice: `${reason} A fresh worker has your data; please retry.` });
  }, []);

  const loadFiles = useCallback(
    async (files: NamedFile[], opts: LoadOptions = {}) => {
      if (!files.length) return;
      const { sources, fitFiles } = await splitDropped(files);
      await task('Could not load the data', async (ctx) => {
        const ds = await loadTask(env, ctx, sources, fitFiles, opts);
        // New data and no fit with it: fit the default model at once when that is quick.
        if (autoFit && sources.length && !fitFiles.length && ds)
          if (estimateFitSeconds(ds) <= AUTO_FIT_SECONDS) await fitTask(env, ctx, settingsForDemo);
      });
    },
    [task, env, settingsForDemo, autoFit],
  );

  const loadDemo = useCallback(async () => {
    const base = new URL(`${import.meta.env.BASE_URL}demo/`, document.baseURI);
    const sources = DEMO_FILES.map((name) => ({ name, url: new URL(name, base).href }));
    await task('Could not load the data', async (ctx) => {
      if (await loadTask(env, ctx, sources, [], {})) await fitTask(env, ctx, settingsForDemo);
    });
  }, [task, env, settingsForDemo]);

  const runFit = useCallback(
    (settings: FitSettings, resume?: ResumeFrom) =>
      task('The fit failed', (ctx) => fitTask(env, ctx, settings, resume)),
    [task, env],
  );

  const continueFit = useCallback(
    async (entry: FitEntry) => {
      const ds = latest.current.data?.dataset;
      if (!ds) return;
      await runFit(...continuation(entry, ds));
    },
    [runFit, latest],
  );

  const restore = useCallback(
    async (data: LoadedData, fits: Pick<FitEntry, 'label' | 'origin' | 'fit'>[]) => {
      await task('Could not hand the restored data to the worker', async (ctx) => {
        dispatch({ type: 'loadDone', data });
        for (const f of fits) dispatch({ type: 'fitDone', ...f });
        await getBridge().useDataset(ctx.signal, data.dataset);
      });
    },
    [task],
  );

  const reset = useCallback(
    (notice: string) => {
      cancel();
      dispatch({ type: 'reset', notice });
    },
    [cancel],
  );

  return useMemo(
    () => ({
      state,
      loadFiles,
      loadDemo,
      fit: runFit,
      continueFit,
      restore,
      reset,
      cancel,
      showFit: (id: number) => dispatch({ type: 'showFit', id }),
      removeFit: (id: number) => dispatch({ type: 'removeFit', id }),
      dismiss: () => dispatch({ type: 'dismiss' }),
    }),
    [state, loadFiles, loadDemo, runFit, continueFit, restore, reset, cancel],
  );
}

/**
 * The workbench's one task slot: `task(title, work)` runs `work` as its task
 * (starting one cancels the last). Load and fit report their own progress; the
 * runner reports how the task ended.
 */
function useMainTask(dispatch: Dispatch<Action>) {
  const [runner] = useState(() => new TaskRunner<'main'>());
  const task = useCallback(
    (title: string, work: (ctx: TaskContext<never>) => Promise<unknown>) =>
      runner.run(
        'main',
        title,
        (e: TaskEvent) => {
          if (e.type === 'cancelled') dispatch({ type: 'cancelled', notice: e.notice });
          if (e.type === 'failed') dispatch({ type: 'failed', error: e.error });
        },
        work,
      ),
    [runner, dispatch],
  );
  const cancel = useCallback(() => runner.cancel('main'), [runner]);
  return { task, cancel };
}
