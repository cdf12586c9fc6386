/**
 * An lm-evaluation-harness output root (`lm_eval --output_path out/ --log_samples`):
 * `out/<org>__<model>/samples_<task>_<datetime>.jsonl` and `results_<datetime>.json`,
 * at any depth, one model per leaf folder. This file names each log's model and
 * task, keeps the latest run of each (model, task), and groups subtasks into
 * their parent benchmark (mmlu_anatomy → mmlu).
 */
import { isRec } from './harnessDoc.ts';
import type { LoadWarning } from './types.ts';

const STAMP = /^(.+)_(\d{4}-\d{2}-\d{2}T[\d:.-]+)$/;
const LOG_EXT = /\.(jsonl(\.gz)?|parquet)$/i;

const baseName = (file: string) => file.split(/[\\/]/).pop() ?? file;

/** The folder part of a path ('' at the top). */
export const folderOf = (file: string) => file.replace(/[\\/]?[^\\/]*$/, '');

/** Task and run time from `samples_<task>_<datetime>.jsonl[.gz]` (stamp '' when absent). */
export function harnessLogName(fileName: string): { task: string; stamp: string } {
  const stem = baseName(fileName).replace(LOG_EXT, '');
  const s = stem.startsWith('samples_') ? stem.slice('samples_'.length) : stem;
  const m = STAMP.exec(s);
  return m ? { task: m[1], stamp: m[2] } : { task: s, stamp: '' };
}

/** True for a harness results file name (`results_<datetime>.json` or `results.json`). */
export const isResultsName = (fileName: string) =>
  /^results(_.*)?\.json$/i.test(baseName(fileName));

/** What a `results_*.json` tells the loader. */
export interface HarnessResults {
  /** `model_name`, when the harness wrote it. */
  modelName?: string;
  /** Subtask → its top-level group, from `group_subtasks`. */
  parents: Map<string, string>;
  /** Task → its `output_type` (multiple_choice, generate_until, ...), from `configs`. */
  outputTypes: Map<string, string>;
  stamp: string;
}

/** Reads the parts of a results file the loader uses; null when it is not one. */
export function readHarnessResults(fileName: string, text: string): HarnessResults | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRec(json)) return null;
  const parents = new Map<string, string>();
  const groups = json.group_subtasks;
  if (isRec(groups)) {
    const up = new Map<string, string>();
    for (const [g, subs] of Object.entries(groups))
      if (Array.isArray(subs)) for (const s of subs) if (typeof s === 'string') up.set(s, g);
    for (const s of up.keys()) {
      let top = s;
      for (let n = 0; n < 16 && up.has(top); n++) top = up.get(top)!;
      parents.set(s, top);
    }
  }
  const name = json.model_name;
  const stamp = STAMP.exec(baseName(fileName).replace(/\.json$/i, ''))?.[2] ?? '';
  const modelName = typeof name === 'string' && name ? name : undefined;
  return { modelName, parents, outputTypes: outputTypes(json.configs), stamp };
}

/** Each task's `output_type` from a results file's `configs` ({task: {output_type}}). */
function outputTypes(configs: unknown): Map<string, string> {
  const types = new Map<string, string>();
  if (isRec(configs))
    for (const [task, c] of Object.entries(configs))
      if (isRec(c) && typeof c.output_type === 'string') types.set(task, c.output_type);
  return types;
}

/** Families whose subtasks are grouped when no results file says so (longest prefix first). */
const FAMILIES = [
  'leaderboard_mmlu_pro',
  'leaderboard_bbh',
  'leaderboard_musr',
  'leaderboard_math',
  'leaderboard_gpqa',
  'global_mmlu',
  'arabicmmlu',
  'mmlu_pro',
  'agieval',
  'cmmlu',
  'kmmlu',
  'blimp',
  'mmlu',
  'bbh',
];

/** The benchmark a task belongs to: its group from a results file, a known family, or itself. */
export function parentBenchmark(task: string, parents?: Map<string, string>): string {
  const p = parents?.get(task);
  if (p) return p;
  for (const f of FAMILIES) if (task.startsWith(`${f}_`)) return f;
  return task;
}

/** One harness log to choose among. */
export interface RunEntry {
  file: string;
  model: string;
  task: string;
  stamp: string;
}

/**
 * Indices of the logs to read: for each (model, task), the run with the latest
 * time stamp in its name (ties and unstamped logs are all kept, so a real
 * duplicate is still reported). Each dropped run becomes a note.
 */
export function latestRuns(runs: RunEntry[]): { keep: Set<number>; notes: LoadWarning[] } {
  const best = new Map<string, number>();
  runs.forEach((r, n) => {
    if (!r.stamp) return;
    const id = `${r.model}\u0000${r.task}`;
    const b = best.get(id);
    if (b === undefined || runs[b].stamp < r.stamp) best.set(id, n);
  });
  const keep = new Set<number>();
  const notes: LoadWarning[] = [];
  runs.forEach((r, n) => {
    const b = best.get(`${r.model}\u0000${r.task}`);
    if (b === undefined || runs[b].stamp === r.stamp) keep.add(n);
    else
      notes.push({
        file: r.file,
        code: 'other',
        message:
          `an older run of task '${r.task}' for model '${r.model}' (${r.stamp}); ` +
          `the latest run (${runs[b].stamp}) was read instead`,
      });
  });
  return { keep, notes };
}
