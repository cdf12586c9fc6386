/**
 * The app's verbs (load files, load the demo, fit, cancel) wired to the worker
 * bridge and the reducer. One task runs at a time: starting one cancels the last.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { Dataset } from '../core/data/types';
import type { FitSettings } from '../core/fit/types';
import type { CheckpointSaved, DeviceLoss, ResumeFrom } from '../boundary/checkpoint';
import type { LoadOptions, LoadSource } from '../boundary/protocol';
import { getBridge } from './bridge';
import type { NamedFile } from './dropped';
import { continuation } from './continuation';
import { alignFit, looksLikeFitJson, parseFitJson } from './fitio';
import { AUTO_FIT_SECONDS, estimateFitSeconds } from './fitEstimate';
import { initialState, reducer, type AppState, type FitEntry, type LoadedData } from './state';
import { TaskRunner, type TaskContext, type TaskEvent } from './tasks';

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
  const checkpointTo = useRef(onCheckpoint);
  useEffect(() => {
    checkpointTo.current = onCheckpoint;
  }, [onCheckpoint]);
  const runner = useRef(new TaskRunner<'main'>()).current;
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);

  useEffect(() => {
    getBridge().onRestart = (reason) =>
      dispatch({ type: 'notice', notice: `${reason} A fresh worker has your data; please retry.` });
  }, []);

  /**
   * Runs `work` as the one task of the workbench (starting it cancels the last).
   * Load and fit report their own progress; the runner reports how the task ended.
   */
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
    [runner],
  );

  const fitIn = useCallback(
    async (ctx: TaskContext<never>, settings: FitSettings, resume?: ResumeFrom) => {
      ctx.failAs('The fit failed');
      const replaces = resume?.replaces;
      dispatch({ type: 'fitStart', settings, untilConverged: replaces !== undefined });
      const fit = await getBridge().fit(
        ctx.signal,
        settings,
        (progress) => ctx.live() && dispatch({ type: 'fitProgress', progress }),
        {
          resume,
          checkpoint: (c) => ctx.live() && checkpointTo.current?.(c),
          // An engine that lost its GPU device mid-fit: say where the fit went on.
          deviceLost: (d: DeviceLoss) => ctx.live() && dispatch({ type: 'notice', notice: d.note }),
        },
      );
      if (!ctx.live()) return;
      // A continuation replaces the fit it continued (found by its label: a
      // continuation resumed after a reload names a fit restored under a new id).
      const old =
        replaces === undefined ? undefined : latest.current.fits.find((f) => f.label === replaces);
      if (old && !fit.priorSelection && old.fit.priorSelection)
        fit.priorSelection = old.fit.priorSelection;
      dispatch({ type: 'fitDone', fit, origin: 'fit', replaces: old?.id });
    },
    [],
  );

  /** Loads data sources (if any) in the worker, then restores any fit files against them. */
  const loadIn = useCallback(
    async (
      ctx: TaskContext<never>,
      sources: LoadSource[],
      fitFiles: { name: string; text: string }[],
      opts: LoadOptions,
    ): Promise<Dataset | null | false> => {
      let ds = latest.current.data?.dataset ?? null;
      if (sources.length) {
        ctx.failAs('Could not load the data');
        const names = sources.map((s) => s.name);
        dispatch({ type: 'loadStart', files: names });
        // The worker saves the data to the session store itself (no clone of it here).
        const res = await getBridge().load(
          ctx.signal,
          sources,
          opts,
          (progress) => {
            if (ctx.live()) dispatch({ type: 'loadProgress', progress });
          },
          true,
        );
        if (!ctx.live()) return false;
        ds = res.dataset;
        dispatch({
          type: 'loadDone',
          data: {
            dataset: ds,
            summary: res.summary,
            files: names,
            seconds: res.seconds,
            storedInWorker: res.storedInWorker,
          },
        });
      }
      for (const f of fitFiles) {
        ctx.failAs(`Could not restore ${f.name}`);
        if (!ds) throw new Error(`${f.name}: load the data this fit belongs to together with it`);
        const fit = alignFit(parseFitJson(f.text, f.name), ds, f.name);
        dispatch({ type: 'fitDone', fit, origin: 'import', label: `${f.name} (${fit.model})` });
      }
      return ds;
    },
    [],
  );

  const loadFiles = useCallback(
    async (files: NamedFile[], opts: LoadOptions = {}) => {
      if (!files.length) return;
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
      await task('Could not load the data', async (ctx) => {
        const ds = await loadIn(ctx, sources, fitFiles, opts);
        // New data and no fit with it: fit the default model at once when that is quick.
        if (autoFit && sources.length && !fitFiles.length && ds)
          if (estimateFitSeconds(ds) <= AUTO_FIT_SECONDS) await fitIn(ctx, settingsForDemo);
      });
    },
    [task, loadIn, fitIn, settingsForDemo, autoFit],
  );

  const loadDemo = useCallback(async () => {
    const base = new URL(`${import.meta.env.BASE_URL}demo/`, document.baseURI);
    const sources = DEMO_FILES.map((name) => ({ name, url: new URL(name, base).href }));
    await task('Could not load the data', async (ctx) => {
      if (await loadIn(ctx, sources, [], {})) await fitIn(ctx, settingsForDemo);
    });
  }, [task, loadIn, fitIn, settingsForDemo]);

  const runFit = useCallback(
    (settings: FitSettings, resume?: ResumeFrom) =>
      task('The fit failed', (ctx) => fitIn(ctx, settings, resume)),
    [task, fitIn],
  );

  const continueFit = useCallback(
    async (entry: FitEntry) => {
      const ds = latest.current.data?.dataset;
      if (!ds) return;
      await runFit(...continuation(entry, ds));
    },
    [runFit],
  );

  const cancel = useCallback(() => runner.cancel('main'), [runner]);

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
      runner.cancel('main');
      dispatch({ type: 'reset', notice });
    },
    [runner],
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
