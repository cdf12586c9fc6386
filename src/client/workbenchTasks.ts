/**
 * What the workbench's load and fit tasks do inside their `TaskRunner` task:
 * call the worker bridge and dispatch each step's progress and result to the
 * reducer (`state.ts`). `useWorkbench` wires them to its verbs.
 */
import type { Dispatch, RefObject } from 'react';
import type { Dataset } from '../core/data/types';
import type { FitSettings } from '../core/fit/types';
import type { CheckpointSaved, DeviceLoss, ResumeFrom } from '../boundary/checkpoint';
import type { LoadOptions, LoadSource } from '../boundary/protocol';
import { getBridge } from './bridge';
import type { NamedFile } from './dropped';
import { alignFit, looksLikeFitJson, parseFitJson } from './fitio';
import type { Action, AppState } from './state';
import type { TaskContext } from './tasks';

/** What the tasks read and write besides their arguments. */
export interface TaskEnv {
  dispatch: Dispatch<Action>;
  /** The state as last rendered. */
  latest: RefObject<AppState>;
  /** Told of each checkpoint the worker stored (or could not store) for a running fit. */
  checkpointTo: RefObject<((c: CheckpointSaved) => void) | undefined>;
}

/** A fit.json dropped beside the data, restored against it once it has loaded. */
export interface FitFile {
  name: string;
  text: string;
}

/** Splits dropped files into data sources for the worker and fit.json files to restore. */
export async function splitDropped(
  files: NamedFile[],
): Promise<{ sources: LoadSource[]; fitFiles: FitFile[] }> {
  const sources: LoadSource[] = [];
  const fitFiles: FitFile[] = [];
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
  return { sources, fitFiles };
}

/** Fits in the worker; with `resume`, from a checkpoint (and a continuation replaces its fit). */
export async function fitTask(
  env: TaskEnv,
  ctx: TaskContext<never>,
  settings: FitSettings,
  resume?: ResumeFrom,
): Promise<void> {
  const { dispatch } = env;
  ctx.failAs('The fit failed');
  const replaces = resume?.replaces;
  dispatch({ type: 'fitStart', settings, untilConverged: replaces !== undefined });
  const fit = await getBridge().fit(
    ctx.signal,
    settings,
    (progress) => ctx.live() && dispatch({ type: 'fitProgress', progress }),
    {
      resume,
      checkpoint: (c) => ctx.live() && env.checkpointTo.current?.(c),
      // An engine that lost its GPU device mid-fit: say where the fit went on.
      deviceLost: (d: DeviceLoss) => ctx.live() && dispatch({ type: 'notice', notice: d.note }),
    },
  );
  if (!ctx.live()) return;
  // A continuation replaces the fit it continued (found by its label: a
  // continuation resumed after a reload names a fit restored under a new id).
  const old =
    replaces === undefined ? undefined : env.latest.current.fits.find((f) => f.label === replaces);
  if (old && !fit.priorSelection && old.fit.priorSelection)
    fit.priorSelection = old.fit.priorSelection;
  dispatch({ type: 'fitDone', fit, origin: 'fit', replaces: old?.id });
}

/**
 * Loads data sources (if any) in the worker, then restores any fit files
 * against them. Returns the data set now loaded (null: none), or false if the
 * task was superseded.
 */
export async function loadTask(
  env: TaskEnv,
  ctx: TaskContext<never>,
  sources: LoadSource[],
  fitFiles: FitFile[],
  opts: LoadOptions,
): Promise<Dataset | null | false> {
  let ds = env.latest.current.data?.dataset ?? null;
  if (sources.length) {
    ds = await loadSources(env, ctx, sources, opts);
    if (!ds) return false;
  }
  for (const f of fitFiles) {
    ctx.failAs(`Could not restore ${f.name}`);
    if (!ds) throw new Error(`${f.name}: load the data this fit belongs to together with it`);
    const fit = alignFit(parseFitJson(f.text, f.name), ds, f.name);
    env.dispatch({ type: 'fitDone', fit, origin: 'import', label: `${f.name} (${fit.model})` });
  }
  return ds;
}

/** Reads the sources into one data set in the worker; null if the task was superseded. */
async function loadSources(
  { dispatch }: TaskEnv,
  ctx: TaskContext<never>,
  sources: LoadSource[],
  opts: LoadOptions,
): Promise<Dataset | null> {
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
  if (!ctx.live()) return null;
  dispatch({
    type: 'loadDone',
    data: {
      dataset: res.dataset,
      summary: res.summary,
      files: names,
      seconds: res.seconds,
      storedInWorker: res.storedInWorker,
    },
  });
  return res.dataset;
}
