/**
 * Benchmark operations run inside the compute worker, for `bench/browser/run.ts`
 * (headless Chromium, production build). Loaded on demand by `worker.ts`'s
 * `bench` method, so the app never loads this module in normal use. It keeps
 * its own simulated data set and never touches the one the app loaded.
 */
import { loadDataset } from '../core/data/load';
import type { Dataset } from '../core/data/types';
import { writeWideCsv } from '../core/data/write';
import { createEngine, probeEnvironment } from '../core/engines/select';
import type { Engine, EngineChoice, EngineName } from '../core/engines/types';
import { fitDataset, FUSED_HANDLE, type EngineHandle } from '../core/fit/fit';
import { makeObjective, pose } from '../core/fit/pose';
import type { FitProgress, FitSettings, TracePoint } from '../core/fit/types';
import { simulateNominal, type SimulatedGate } from '../core/model/simulate';
import type { ModelType } from '../core/model/types';
import { pickEngine, resolveChoice } from './engines';

/**
 * An engine as the benchmark names it: an engine name, created directly (so
 * 'fused' is the single-threaded loop), or 'fused-app': what the app's fit
 * runs for 'fused', spread over shard workers when the data set is big enough.
 */
/** `wasm-f32`: the wasm engine's float32 kernel (the passes a mixed-precision fit takes first). */
export type BenchEngine = EngineName | 'fused-app' | 'wasm-app' | 'wasm-f32';

/** One benchmark operation; each answers with the matching entry of `BenchReplies`. */
export type BenchCall =
  | { op: 'environment' }
  | { op: 'simulate'; J: number; I: number; seed: number; gate?: SimulatedGate }
  | { op: 'passes'; engines: BenchEngine[]; model?: ModelType; minMs?: number; maxReps?: number }
  | { op: 'parse' }
  /** The worker's loader on files served with the app (the result formats of issue 13). */
  | { op: 'parseFiles'; files?: { url: string; name: string }[] }
  /**
   * `fetchFiles` only fetches them (kept for the next `parseFiles` without files),
   * so the bench can read the worker thread's CPU time around the parse alone.
   */
  | { op: 'fetchFiles'; files: { url: string; name: string }[] }
  | {
      op: 'fit';
      label: string;
      settings: Partial<FitSettings>;
      /** 'fused' (default): the single-threaded loop; 'fused-app': as the app runs it. */
      engine?: 'fused' | 'fused-app' | 'app';
      maxSeconds?: number;
    }
  | { op: 'drop' };

export interface BenchEnvironment {
  userAgent: string;
  hardwareConcurrency: number;
  crossOriginIsolated: boolean;
  /** What `auto` picks here, and why (names a software adapter if there is one). */
  auto: { name: EngineName; reason: string };
  webgpuAdapter: string | null;
  webglRenderer: string | null;
}

export interface BenchSimulated {
  J: number;
  I: number;
  Kmax: number;
  meanK: number;
  nCells: number;
  /** Observed probabilities stored (cells × options, without padding). */
  nValues: number;
  seconds: number;
}

export interface BenchPass {
  engine: BenchEngine;
  /** How it ran (e.g. "spread over 2 shard workers"), when the engine says. */
  detail?: string;
  /** Mean ms per loss+gradient pass after one warm-up pass; null when unavailable. */
  ms: number | null;
  reps: number;
  /** Engine creation (uploads, compilation) plus the warm-up pass. */
  setupMs: number;
  error?: string;
}

export interface BenchParse {
  bytes: number;
  rows: number;
  /** Writing the wide CSV text (not part of the throughput). */
  writeSeconds: number;
  /** Parsing the Blob with the app's loader and 1 MiB chunks, as the worker's `load` does. */
  seconds: number;
  mbPerSecond: number;
}

export interface BenchParseFiles {
  bytes: number;
  files: number;
  J: number;
  I: number;
  /** Fetching the files into Blobs (not part of the throughput). */
  fetchSeconds: number;
  /** `loadDataset` on the Blobs (1 MiB chunks, as the worker's `load`). */
  seconds: number;
  mbPerSecond: number;
}

export interface BenchFit {
  label: string;
  /** fit.json's engineReason: which engine ran, and how. */
  engineReason: string;
  finished: boolean;
  passes: number;
  steps: number;
  seconds: number;
  crossEntropy: number;
  objective: number;
  converged: boolean;
  /** Why the optimiser stopped, and its scaled gradient norm there. */
  stopReason?: string;
  gradNorm?: number;
  /** The prior-strength search: passes (over the cells it searched on), λ, on what. */
  search?: { passes: number; lambda: number; reason: string };
  trace: TracePoint[];
  error?: string;
}

export interface BenchReplies {
  environment: BenchEnvironment;
  simulate: BenchSimulated;
  passes: BenchPass[];
  parse: BenchParse;
  parseFiles: BenchParseFiles;
  fetchFiles: { files: number; bytes: number; fetchSeconds: number };
  fit: BenchFit;
  drop: true;
}

let data: Dataset | null = null;

function need(): Dataset {
  if (!data) throw new Error('bench: simulate a data set first');
  return data;
}

const now = () => performance.now();

function timeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

async function environment(): Promise<BenchEnvironment> {
  const env = await probeEnvironment();
  const a = env.webgpuAdapter;
  return {
    userAgent: navigator.userAgent,
    hardwareConcurrency: navigator.hardwareConcurrency,
    crossOriginIsolated: self.crossOriginIsolated,
    auto: await resolveChoice('auto'),
    webgpuAdapter: a
      ? [a.vendor, a.architecture, a.description].filter(Boolean).join(' ') +
        (a.isFallbackAdapter ? ' (fallback adapter)' : '')
      : null,
    webglRenderer: env.webgl2?.renderer ?? null,
  };
}

function simulate(J: number, I: number, seed: number, gate?: SimulatedGate): BenchSimulated {
  data = null; // let a previous data set go before allocating the next
  const t0 = now();
  const sim = simulateNominal({ J, I, seed, concentration: 50, gate });
  data = sim.data;
  let sumK = 0;
  for (let i = 0; i < I; i++) sumK += data.nOptions[i];
  let nCells = 0;
  for (const o of data.observed) nCells += o;
  return {
    J,
    I,
    Kmax: data.Kmax,
    meanK: sumK / I,
    nCells,
    nValues: J * sumK,
    seconds: (now() - t0) / 1000,
  };
}

/** ms per loss+gradient pass at the documented start, for each engine in turn. */
async function passes(
  engines: BenchEngine[],
  model: ModelType,
  minMs: number,
  maxReps: number,
): Promise<BenchPass[]> {
  const ds = need();
  const rows: BenchPass[] = [];
  for (const name of engines) {
    const t0 = now();
    let engine: Engine | null = null;
    try {
      const posed = pose(ds, { model, mode: 'default' });
      const coarse = name === 'wasm-f32';
      const create =
        name === 'fused' || name === 'wasm' || coarse
          ? createEngine(posed.problem, coarse ? 'wasm' : name)
          : pickEngine(appEngine(name)).then((h) => h.create(posed.problem));
      engine = await timeout(create, 180_000, `${name} set-up`);
      const obj = makeObjective(posed, engine);
      const g = new Float64Array(posed.x0.length);
      await timeout(obj.f(posed.x0, g, coarse), 180_000, `${name} first pass`);
      const setupMs = now() - t0;
      let reps = 0;
      const t = now();
      while (reps < 2 || (now() - t < minMs && reps < maxReps)) {
        await obj.f(posed.x0, g, coarse);
        reps++;
      }
      rows.push({ engine: name, detail: engine.detail, ms: (now() - t) / reps, reps, setupMs });
    } catch (e) {
      rows.push({ engine: name, ms: null, reps: 0, setupMs: now() - t0, error: String(e) });
    } finally {
      engine?.dispose();
    }
  }
  return rows;
}

/** Parse throughput of the app's loader on the simulated data set written as a wide CSV. */
async function parse(): Promise<BenchParse> {
  const ds = need();
  const t0 = now();
  const blob = new Blob([writeWideCsv(ds)], { type: 'text/csv' });
  const writeSeconds = (now() - t0) / 1000;
  let rows = 0;
  const t1 = now();
  const back = await loadDataset([{ name: 'bench.wide.csv', blob }], {
    chunkSize: 1 << 20,
    onProgress: (_bytes, r) => (rows = r),
  });
  const seconds = (now() - t1) / 1000;
  if (back.J !== ds.J || back.I !== ds.I)
    throw new Error(`bench: read back ${back.J} × ${back.I}, wrote ${ds.J} × ${ds.I}`);
  return { bytes: blob.size, rows, writeSeconds, seconds, mbPerSecond: blob.size / 1e6 / seconds };
}

/** Files fetched by `fetchFiles`, for the next `parseFiles` without files. */
let fetched: { inputs: { name: string; blob: Blob }[]; fetchSeconds: number } | null = null;

async function fetchFiles(files: { url: string; name: string }[]) {
  const t0 = now();
  const inputs = [];
  for (const f of files) {
    const res = await fetch(f.url);
    if (!res.ok) throw new Error(`bench: ${f.url}: HTTP ${res.status}`);
    inputs.push({ name: f.name, blob: await res.blob() });
  }
  fetched = { inputs, fetchSeconds: (now() - t0) / 1000 };
  return {
    files: inputs.length,
    bytes: inputs.reduce((t, f) => t + f.blob.size, 0),
    fetchSeconds: fetched.fetchSeconds,
  };
}

/** Parse throughput of the app's loader on files fetched from the server first. */
async function parseFiles(files?: { url: string; name: string }[]): Promise<BenchParseFiles> {
  if (files || !fetched) await fetchFiles(files ?? []);
  const { inputs, fetchSeconds } = fetched!;
  fetched = null;
  const bytes = inputs.reduce((t, f) => t + f.blob.size, 0);
  const t1 = now();
  const ds = await loadDataset(inputs, { chunkSize: 1 << 20 });
  const seconds = (now() - t1) / 1000;
  return {
    bytes,
    files: inputs.length,
    J: ds.J,
    I: ds.I,
    fetchSeconds,
    seconds,
    mbPerSecond: bytes / 1e6 / seconds,
  };
}

/** `x-app` is engine x as the app runs it (over shard workers); `auto` the app's own choice. */
function appEngine(name: BenchEngine | 'auto'): EngineChoice {
  return name.endsWith('-app') ? (name.slice(0, -4) as EngineChoice) : (name as EngineChoice);
}

/**
 * One fit: on the fused engine in this thread (`fused`), as the app runs the
 * fused engine (`fused-app`) or with the app's own engine choice (`app`);
 * stopped (finished: false) after `maxSeconds`.
 */
async function fit(
  label: string,
  settings: Partial<FitSettings>,
  which: 'fused' | 'fused-app' | 'app',
  maxSeconds: number,
): Promise<BenchFit> {
  const ds = need();
  const handle: EngineHandle =
    which === 'fused' ? FUSED_HANDLE : await pickEngine(which === 'app' ? 'auto' : 'fused');
  const ac = new AbortController();
  // A non-finite delay would fire at once.
  const timer = Number.isFinite(maxSeconds)
    ? setTimeout(() => ac.abort(), maxSeconds * 1000)
    : undefined;
  let last: FitProgress | null = null;
  let logged = 0;
  const t0 = now();
  try {
    const json = await fitDataset(ds, settings, {
      engine: handle,
      signal: ac.signal,
      onProgress: (p) => {
        last = p;
        if (p.elapsedMs - logged >= 30_000) {
          logged = p.elapsedMs;
          console.log(
            `[bench] ${label}: step ${p.step}, ${p.passes} passes, objective ` +
              `${p.objective.toFixed(1)}, ${(p.elapsedMs / 1000).toFixed(0)} s`,
          );
        }
      },
    });
    return {
      label,
      engineReason: json.engineReason,
      finished: true,
      passes: json.passes,
      steps: json.steps,
      seconds: json.seconds,
      crossEntropy: json.crossEntropy,
      objective: json.objective,
      converged: json.converged,
      stopReason: json.stopReason,
      gradNorm: json.gradNorm,
      search: json.priorSelection && {
        passes: json.priorSelection.passes,
        lambda: json.priorSelection.lambda,
        reason: json.priorSelection.reason,
      },
      trace: json.trace,
    };
  } catch (e) {
    const p = last as FitProgress | null;
    return {
      label,
      engineReason: handle.reason,
      finished: false,
      passes: p?.passes ?? 0,
      steps: p?.step ?? 0,
      seconds: (now() - t0) / 1000,
      crossEntropy: NaN,
      objective: p?.objective ?? NaN,
      converged: false,
      trace: [],
      error: ac.signal.aborted ? `stopped after ${maxSeconds} s` : String(e),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one benchmark operation (see `BenchCall`). */
export async function runBench<C extends BenchCall>(call: C): Promise<BenchReplies[C['op']]> {
  type R = BenchReplies[C['op']];
  const c = call as BenchCall;
  switch (c.op) {
    case 'environment':
      return (await environment()) as R;
    case 'simulate':
      return simulate(c.J, c.I, c.seed, c.gate) as R;
    case 'passes':
      return (await passes(c.engines, c.model ?? 'llmnrm', c.minMs ?? 2000, c.maxReps ?? 50)) as R;
    case 'parse':
      return (await parse()) as R;
    case 'parseFiles':
      return (await parseFiles(c.files)) as R;
    case 'fetchFiles':
      return (await fetchFiles(c.files)) as R;
    case 'fit':
      return (await fit(c.label, c.settings, c.engine ?? 'fused', c.maxSeconds ?? Infinity)) as R;
    case 'drop':
      data = null;
      return true as R;
  }
}
