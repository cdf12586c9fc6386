/**
 * Browser benchmark: the production build with its test hooks (vite --mode
 * testbuild: the worker's bench method) in headless Chromium, fits in the
 * app's Web Worker.
 *
 *   npx tsx bench/browser/run.ts [--shape 189x5000] [--steps 2500] [--gpu-shape 20x200]
 *     [--full-shape 189x31554] [--full-seconds 600] [--full-gate open|shut] [--no-full]
 *     [--phases gpu,demo,...]
 *     [--skip-build] [--render-only] [--out bench/results.md]
 *     [--parse-only] [--formats-mb 100] [--formats harness-jsonl,lighteval-parquet,...]
 *
 * (`npm run bench` runs it after the Node benchmark; see bench/bench.ts.)
 *
 * Builds the app into node_modules/.cache/bench-dist, serves it with
 * `vite preview` (COOP/COEP: the page is cross-origin isolated), opens it in
 * /usr/bin/chromium with the e2e launch arguments and measures, per phase:
 *  - gpu:     ms per loss+gradient pass of every browser engine at a small shape
 *             (the GPU engines run on SwiftShader here: software);
 *  - demo:    first visit, reload and "Load demo" until the first ICC curves;
 *  - engines: ms per pass at --shape of fused, wasm (float64 and its float32 kernel), both
 *             as the app runs them (shard workers), and tfjs-wasm; data simulated in the worker;
 *  - parse:   the worker's loader on that data written as a wide CSV (MB/s);
 *  - formats: the worker's loader on every input format (wide and long CSV, harness
 *             JSONL and Parquet, lighteval and Meta Parquet, Inspect .eval, HELM,
 *             OpenCompass), each about --formats-mb, written in Node from --shape
 *             cells by the unit tests' builders and served with the app (MB/s,
 *             against issue 26's 20 MB/s), beside Node's (the CLI's) read of the
 *             same files;
 *  - fits:    paper Adam (--steps) and the fast optimiser on the fused engine, with
 *             peak memory and main-thread long tasks while they run;
 *  - ui:      a --shape wide CSV through the file input, Fit clicked at once: time to
 *             loaded and to curves, long tasks while loading and fitting;
 *  - full:    --full-shape: ms per pass, the fast optimiser (capped at --full-seconds),
 *             Adam extrapolated from ms per pass, peak memory.
 * Raw results are kept in node_modules/.cache/bench-browser/results.json (a run of
 * some phases keeps the others' last results); the section is written to --out.
 */
import { CHROMIUM, CHROMIUM_ARGS as E2E_CHROMIUM_ARGS } from '../../e2e/chromium';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { writeWideCsv } from '../../src/core/data/write';
import { loadDatasetFromPaths } from '../../src/node/files';
import type { FitSettings, TracePoint } from '../../src/core/fit/types';
import { simulatedGate, simulateNominal, type SimulatedGate } from '../../src/core/model/simulate';
import type {
  BenchCall,
  BenchEnvironment,
  BenchFit,
  BenchParse,
  BenchParseFiles,
  BenchPass,
  BenchReplies,
  BenchSimulated,
} from '../../src/worker/bench';
import {
  installPageHooks,
  wrapBridge,
  type LongTask,
  type MemReport,
  type PageBench,
  type StateMark,
} from './page';
import { benchCells, FORMAT_IDS, writeFormat, type FormatId, type FormatSet } from './formats';
import { ProcMemSampler, workerCpuBetween, workerCpuSeconds, type RssPeak } from './procmem';
import { renderBrowserSection } from './render';
import { loadNodeFused, writeSection, type NodeFused } from './results';
import { parseShape } from '../shape';

export const PHASES = ['gpu', 'demo', 'engines', 'parse', 'formats', 'fits', 'ui', 'full'] as const;
export type Phase = (typeof PHASES)[number];

/** Launch arguments of the e2e suite (playwright.config.ts), plus eager memory measurement. */
export const CHROMIUM_ARGS = [
  ...E2E_CHROMIUM_ARGS,
  // measureUserAgentSpecificMemory() answers at once instead of at the next GC (≤ 20 s).
  '--enable-blink-features=ForceEagerMeasureMemory',
  '--enable-precise-memory-info',
];

/** parseArgs options shared with bench/bench.ts. */
export const BROWSER_OPTIONS = {
  shape: { type: 'string', default: '189x5000' },
  steps: { type: 'string', default: '2500' },
  seed: { type: 'string', default: '2026' },
  'gpu-shape': { type: 'string', default: '20x200' },
  'full-shape': { type: 'string', default: '189x31554' },
  'full-seconds': { type: 'string', default: '600' },
  /** The full shape's true fallback gate: open (w0 −2, κ 1) or shut (w0 −20, κ 0). */
  'full-gate': { type: 'string', default: 'open' },
  'no-full': { type: 'boolean', default: false },
  phases: { type: 'string', default: PHASES.join(',') },
  port: { type: 'string', default: '4390' },
  'skip-build': { type: 'boolean', default: false },
  'render-only': { type: 'boolean', default: false },
  out: { type: 'string', default: 'bench/results.md' },
  /** Only the parse phases (wide CSV and the result formats): --phases parse,formats --no-full. */
  'parse-only': { type: 'boolean', default: false },
  'formats-mb': { type: 'string', default: '100' },
  formats: { type: 'string', default: FORMAT_IDS.join(',') },
} as const;

export interface BrowserBenchOptions {
  J: number;
  I: number;
  steps: number;
  seed: number;
  gpu: { J: number; I: number };
  full: { J: number; I: number } | null;
  fullSeconds: number;
  fullGate: SimulatedGate;
  phases: Phase[];
  port: number;
  skipBuild: boolean;
  renderOnly: boolean;
  out: string;
  formatsBytes: number;
  formats: FormatId[];
}

export function browserOptionsFrom(v: {
  [K in keyof typeof BROWSER_OPTIONS]?: string | boolean;
}): BrowserBenchOptions {
  const str = (k: keyof typeof BROWSER_OPTIONS) => String(v[k] ?? BROWSER_OPTIONS[k].default);
  const phases = (v['parse-only'] ? 'parse,formats' : str('phases'))
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of phases)
    if (!(PHASES as readonly string[]).includes(p))
      throw new Error(`--phases: unknown phase "${p}" (known: ${PHASES.join(', ')})`);
  return {
    ...parseShape(str('shape')),
    steps: Number(str('steps')),
    seed: Number(str('seed')),
    gpu: parseShape(str('gpu-shape')),
    full: v['no-full'] || v['parse-only'] ? null : parseShape(str('full-shape')),
    fullSeconds: Number(str('full-seconds')),
    fullGate: simulatedGate(str('full-gate'), '--full-gate'),
    phases: (v['no-full'] ? phases.filter((p) => p !== 'full') : phases) as Phase[],
    formatsBytes: Number(str('formats-mb')) * 1e6,
    formats: str('formats')
      .split(',')
      .filter(Boolean)
      .map((f) => {
        if (!(FORMAT_IDS as string[]).includes(f))
          throw new Error(`--formats: unknown format "${f}" (known: ${FORMAT_IDS.join(', ')})`);
        return f as FormatId;
      }),
    port: Number(str('port')),
    skipBuild: !!v['skip-build'],
    renderOnly: !!v['render-only'],
    out: str('out'),
  };
}

// ---------------------------------------------------------------------------
// Results (kept as JSON between runs; see render.ts for the markdown)

export interface LongTaskStats {
  count: number;
  maxMs: number;
  /** Σ (duration − 50 ms): the main thread's total blocking time. */
  blockingMs: number;
  windowMs: number;
}

export interface FitRun extends BenchFit {
  memory: MemReport;
  rss: RssPeak;
  longtasks: LongTaskStats;
}

export interface ShownTiming {
  /** ms from the start (navigation, click or file-input change) to each milestone. */
  loadedMs: number | null;
  fittingMs: number | null;
  curvesMs: number | null;
  error?: string;
}

export interface BrowserResults {
  chromium: string;
  /** --shape of the run (phases kept from an earlier run share it). */
  shape: { J: number; I: number };
  env: BenchEnvironment | null;
  machine: string;
  /** When each phase finished (UTC), so phases kept from an earlier run show as such. */
  dates: Partial<Record<Phase, string>>;
  gpu?: { sim: BenchSimulated; passes: BenchPass[] };
  demo?: { firstVisit: ShownTiming; reload: ShownTiming; click: ShownTiming[] };
  engines?: { sim: BenchSimulated; passes: BenchPass[]; node?: NodeFused | null };
  parse?: { sim: BenchSimulated; parse: BenchParse };
  /** The result formats: files written in Node from --shape cells, parsed in the worker. */
  formats?: (Omit<FormatSet, 'files'> & {
    files: number;
    parse: BenchParseFiles;
    /** The worker threads' CPU time during the parse (Linux /proc), when read. */
    cpuSeconds?: number;
  })[];
  fits?: { sim: BenchSimulated; steps: number; adam: FitRun; fast: FitRun; fastApp?: FitRun };
  ui?: {
    J: number;
    I: number;
    bytes: number;
    timing: ShownTiming;
    /** Seconds the worker reported for reading and parsing (LoadResult.seconds). */
    workerLoadSeconds: number | null;
    fit: { seconds: number; passes: number; crossEntropy: number; engine: string } | null;
    loadTasks: LongTaskStats;
    fitTasks: LongTaskStats;
    /** The fit window's long tasks: how long before the curves showed each began. */
    fitTaskList?: { beforeShownMs: number; duration: number }[];
    /** Renderer and browser RSS from picking the file to the curves. */
    rss: RssPeak;
  };
  full?: {
    sim: BenchSimulated;
    passes: BenchPass[];
    /** RSS while timing the passes (a page of its own, four engines built). */
    passesRss?: RssPeak;
    fast: FitRun;
    steps: number;
    maxSeconds: number;
    /** The simulated truth's fallback gate (absent in results from before it was recorded: open). */
    gate?: SimulatedGate;
    /** The fit's page: simulating the data, then the default fit. */
    memory: MemReport;
    rss: RssPeak;
  };
}

const CACHE = 'node_modules/.cache/bench-browser';
/** When a phase finished, to the minute (UTC). */
const stamp = () => new Date().toISOString().slice(0, 16).replace('T', ' ');
const RESULTS_JSON = path.join(CACHE, 'results.json');
const DIST = 'node_modules/.cache/bench-dist';

function log(msg: string): void {
  console.log(`[browser bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()}`;
}

// ---------------------------------------------------------------------------
// Build, serve, launch

function build(): void {
  log(`building into ${DIST}`);
  const r = spawnSync(
    'npx',
    [
      'vite',
      'build',
      '--mode',
      'testbuild',
      '--outDir',
      DIST,
      '--emptyOutDir',
      '--bypass-lock',
      '--logLevel',
      'warn',
    ],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
}

async function serve(port: number): Promise<ChildProcess> {
  const child = spawn(
    'npx',
    ['vite', 'preview', '--outDir', DIST, '--port', String(port), '--strictPort', '--bypass-lock'],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const url = `http://localhost:${port}/`;
  for (let t = Date.now(); Date.now() - t < 60_000;) {
    if (child.exitCode !== null) throw new Error(`vite preview exited: ${out}`);
    try {
      const res = await fetch(url);
      if (res.ok) {
        const coop = res.headers.get('cross-origin-opener-policy');
        if (coop !== 'same-origin') log(`warning: COOP header is ${coop}`);
        return child;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  stopServer(child);
  throw new Error(`vite preview did not answer on ${url} within 60 s: ${out}`);
}

function stopServer(child: ChildProcess): void {
  // The server was started detached: its own process group, led by child.pid.
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

// ---------------------------------------------------------------------------
// Page helpers

type Win = { __bench: PageBench; __nrmWorkbench: { bridge: { api: WorkerApiBench } } };
type WorkerApiBench = { bench(c: BenchCall): Promise<unknown> };

/**
 * Installs the page hooks in every page of `ctx`. tsx compiles with esbuild's
 * keepNames, which wraps functions in `__name(...)`: functions serialised into
 * the page (init script, evaluate) need that helper there too.
 */
async function addHooks(ctx: BrowserContext): Promise<void> {
  await ctx.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  await ctx.addInitScript(installPageHooks);
}

async function newPage(ctx: BrowserContext, url: string, state: string): Promise<Page> {
  const page = await ctx.newPage();
  page.on('console', (m) => {
    const text = m.text();
    if (text.startsWith('[bench]') || m.type() === 'error') log(`page: ${text}`);
  });
  page.on('pageerror', (e) => log(`pageerror: ${e.message}`));
  await page.goto(url);
  await waitState(page, [state]);
  return page;
}

async function waitState(page: Page, states: string[], timeoutMs = 120_000): Promise<string> {
  const h = await page.waitForFunction(
    (want) => {
      const st = document.querySelector('.app')?.getAttribute('data-state');
      return st && want.includes(st) ? st : null;
    },
    states,
    { polling: 200, timeout: timeoutMs },
  );
  return (await h.jsonValue()) as string;
}

/** Runs one operation of src/worker/bench.ts in the app's worker (via the bridge's comlink proxy). */
async function bench<C extends BenchCall>(page: Page, call: C): Promise<BenchReplies[C['op']]> {
  return (await page.evaluate(
    (c) => (window as unknown as Win).__nrmWorkbench.bridge.api.bench(c),
    call as BenchCall,
  )) as BenchReplies[C['op']];
}

function taskStats(tasks: LongTask[], from: number, to: number): LongTaskStats {
  const inside = tasks.filter((t) => t.start >= from && t.start < to);
  return {
    count: inside.length,
    maxMs: inside.reduce((m, t) => Math.max(m, t.duration), 0),
    blockingMs: inside.reduce((n, t) => n + Math.max(0, t.duration - 50), 0),
    windowMs: to - from,
  };
}

const pageNow = (page: Page) => page.evaluate(() => performance.now());
const longtasks = (page: Page) => page.evaluate(() => (window as unknown as Win).__bench.longtasks);

/** Waits until the app is fitted with curves drawn (or failed); times from `t0` (page clock). */
async function waitShown(page: Page, t0: number, timeoutMs: number): Promise<ShownTiming> {
  await page.waitForFunction(
    () => {
      const b = (window as unknown as Win).__bench;
      const st = document.querySelector('.app')?.getAttribute('data-state');
      return st === 'error' || (st === 'fitted' && b.curvesAt !== null);
    },
    null,
    { polling: 500, timeout: timeoutMs },
  );
  const { states, curvesAt, error } = await page.evaluate(() => {
    const b = (window as unknown as Win).__bench;
    return {
      states: b.states,
      curvesAt: b.curvesAt,
      error: document.querySelector('[data-testid="error"]')?.textContent ?? null,
    };
  });
  const first = (s: string) => states.find((m: StateMark) => m.state === s && m.t >= t0)?.t;
  const rel = (t: number | undefined) => (t === undefined ? null : t - t0);
  const fitted = first('fitted');
  const err = first('error');
  return {
    // The demo goes from loading straight to fitting (one render): then fitting marks "loaded".
    loadedMs: rel(first('loaded') ?? first('fitting')),
    fittingMs: rel(first('fitting')),
    curvesMs: fitted !== undefined && curvesAt !== null ? rel(Math.max(fitted, curvesAt)) : null,
    ...(err !== undefined ? { error: error ?? 'the app reported an error' } : {}),
  };
}

// ---------------------------------------------------------------------------
// Phases

async function phaseGpu(ctx: BrowserContext, o: BrowserBenchOptions, r: BrowserResults) {
  const page = await newPage(ctx, '/?nodemo', 'empty');
  const sim = await bench(page, { op: 'simulate', J: o.gpu.J, I: o.gpu.I, seed: o.seed });
  log(`gpu: simulated ${sim.J} × ${sim.I}`);
  const passes = await bench(page, {
    op: 'passes',
    engines: ['fused', 'tfjs-wasm', 'tfjs-webgl', 'tfjs-webgpu', 'webgpu-fused'],
    minMs: 3000,
    maxReps: 2000,
  });
  for (const p of passes) log(`gpu: ${p.engine} ${p.ms?.toFixed(2) ?? p.error} ms/pass`);
  r.gpu = { sim, passes };
  await page.close();
}

async function phaseDemo(browser: Browser, baseURL: string, r: BrowserResults) {
  // First visit with an empty HTTP cache, then a reload (warm cache).
  const ctx = await browser.newContext({ baseURL });
  await addHooks(ctx);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => log(`pageerror: ${e.message}`));
  await page.goto('/');
  const firstVisit = await waitShown(page, 0, 120_000);
  log(`demo: first visit → curves ${firstVisit.curvesMs?.toFixed(0)} ms`);
  await page.reload();
  const reload = await waitShown(page, 0, 120_000);
  log(`demo: reload → curves ${reload.curvesMs?.toFixed(0)} ms`);
  await page.close();
  const click: ShownTiming[] = [];
  for (let k = 0; k < 3; k++) {
    const p = await newPage(ctx, '/?nodemo', 'empty');
    const t0 = await p.evaluate(() => {
      const t = (window as unknown as Win).__bench.reset();
      [...document.querySelectorAll('button')]
        .find((b) => b.textContent?.trim() === 'Load demo')!
        .click();
      return t;
    });
    const t = await waitShown(p, t0, 120_000);
    log(`demo: Load demo → curves ${t.curvesMs?.toFixed(0)} ms`);
    click.push(t);
    await p.close();
  }
  await ctx.close();
  r.demo = { firstVisit, reload, click };
}

async function simulateMain(
  page: Page,
  o: BrowserBenchOptions,
  gate?: SimulatedGate,
): Promise<BenchSimulated> {
  const sim = await bench(page, { op: 'simulate', J: o.J, I: o.I, seed: o.seed, gate });
  log(
    `simulated ${sim.J} × ${sim.I} in the worker (mean K ${sim.meanK.toFixed(2)}, gate ${gate ?? 'open'}) in ${sim.seconds.toFixed(1)} s`,
  );
  return sim;
}

async function runFit(
  page: Page,
  procs: ProcMemSampler,
  label: string,
  settings: Partial<FitSettings>,
  engine: 'fused' | 'fused-app' | 'app' = 'fused',
  maxSeconds?: number,
): Promise<FitRun> {
  log(`fit: ${label} …`);
  procs.start();
  await page.evaluate(() => (window as unknown as Win).__bench.memStart(2000));
  const t0 = await pageNow(page);
  const fit = await bench(page, { op: 'fit', label, settings, engine, maxSeconds });
  const t1 = await pageNow(page);
  const memory = await page.evaluate(() => (window as unknown as Win).__bench.memStop());
  const rss = procs.stop();
  const lt = taskStats(await longtasks(page), t0, t1);
  log(
    `fit: ${label}: ${fit.passes} passes, ${fit.seconds.toFixed(1)} s, CE ${fit.crossEntropy.toFixed(2)}` +
      (fit.error ? ` (${fit.error})` : ''),
  );
  return { ...fit, memory, rss, longtasks: lt };
}

async function phaseMain(
  ctx: BrowserContext,
  procs: ProcMemSampler,
  o: BrowserBenchOptions,
  r: BrowserResults,
  save: () => void,
) {
  const want = (p: Phase) => o.phases.includes(p);
  let page = await newPage(ctx, '/?nodemo', 'empty');
  let sim = await simulateMain(page, o);
  if (want('engines')) {
    const passes = await bench(page, {
      op: 'passes',
      engines: ['fused', 'wasm', 'wasm-f32', 'fused-app', 'wasm-app', 'tfjs-wasm'],
      minMs: 4000,
      maxReps: 30,
    });
    for (const p of passes)
      log(`engines: ${p.engine} ${p.ms?.toFixed(1) ?? p.error} ms/pass ${p.detail ?? ''}`);
    r.engines = { sim, passes, node: loadNodeFused(o.J, o.I) };
    r.dates.engines = stamp();
    save();
  }
  if (want('parse')) {
    const parse = await bench(page, { op: 'parse' });
    log(
      `parse: ${(parse.bytes / 1e6).toFixed(0)} MB in ${parse.seconds.toFixed(2)} s = ${parse.mbPerSecond.toFixed(0)} MB/s`,
    );
    r.parse = { sim, parse };
    r.dates.parse = stamp();
    save();
  }
  if (want('fits')) {
    // Each fit in a fresh page and worker, so its memory is its own (tfjs-wasm's heap
    // and the parse test's 100 MB of text would otherwise still be there).
    const fresh = async (
      label: string,
      settings: Partial<FitSettings>,
      engine: 'fused' | 'fused-app' = 'fused',
    ) => {
      await page.close();
      page = await newPage(ctx, '/?nodemo', 'empty');
      sim = await simulateMain(page, o);
      return runFit(page, procs, label, settings, engine);
    };
    const adam = await fresh(`adam-${o.steps} (paper mode)`, {
      model: 'llmnrm',
      mode: 'paper',
      optimizer: 'adam',
      steps: o.steps,
    });
    const fastSettings = {
      model: 'llmnrm',
      mode: 'default',
      optimizer: 'fast',
      steps: o.steps,
    } as const;
    const fast = await fresh('fast (well-posed default)', fastSettings);
    const fastApp = await fresh('fast, fused as the app runs it', fastSettings, 'fused-app');
    r.fits = { sim, steps: o.steps, adam, fast, fastApp };
    r.dates.fits = stamp();
    save();
  }
  await page.close();
}

/**
 * Where the format files are written: a folder of this run (not the build folder,
 * which another run's `vite build --emptyOutDir` may empty). The page's
 * `/bench-formats/...` requests are answered from it by a Playwright route: the
 * app's CSP allows same-origin fetches only.
 */
const FORMATS_DIR = path.join(os.tmpdir(), `llm-nrm-bench-formats-${process.pid}`);

/**
 * Writes every format's files (before the browser starts) and reads each
 * folder once in Node as the CLI does (`loadDatasetFromPaths`), for the Node
 * column beside the worker's.
 */
async function writeFormats(o: BrowserBenchOptions): Promise<FormatSet[]> {
  rmSync(FORMATS_DIR, { recursive: true, force: true });
  const t = performance.now();
  const cells = benchCells(o.J, o.I, o.seed);
  log(
    `formats: simulated ${o.J} × ${o.I} cells in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
  const sets: FormatSet[] = [];
  for (const id of o.formats) {
    const set = writeFormat(FORMATS_DIR, id, cells, o.formatsBytes);
    const t1 = performance.now();
    // A folder of result files as `llm-nrm fit out/`; CSVs as files.
    const csv = set.files.every((f) => f.endsWith('.csv'));
    const ds = await loadDatasetFromPaths(
      csv ? set.files.map((f) => path.join(FORMATS_DIR, f)) : [path.join(FORMATS_DIR, id)],
    );
    set.nodeSeconds = (performance.now() - t1) / 1000;
    if (ds.J !== set.J || ds.I !== set.I)
      throw new Error(`formats: ${id}: Node read ${ds.J} × ${ds.I}, wrote ${set.J} × ${set.I}`);
    log(
      `formats: ${id}: ${set.J} LLMs, ${set.files.length} files, ${(set.bytes / 1e6).toFixed(0)} MB written in ${set.writeSeconds.toFixed(0)} s; ` +
        `Node read it in ${set.nodeSeconds.toFixed(2)} s = ${(set.bytes / 1e6 / set.nodeSeconds).toFixed(1)} MB/s`,
    );
    sets.push(set);
  }
  return sets;
}

async function phaseFormats(ctx: BrowserContext, sets: FormatSet[], r: BrowserResults) {
  r.formats = [];
  const route = '**/bench-formats/**';
  await ctx.route(route, (req) => {
    const rel = decodeURIComponent(new URL(req.request().url()).pathname).replace(
      /^\/bench-formats\//,
      '',
    );
    return req.fulfill({ path: path.join(FORMATS_DIR, rel) });
  });
  try {
    for (const set of sets) {
      // A fresh page and worker per format, so no format's memory is another's.
      const page = await newPage(ctx, '/?nodemo', 'empty');
      const list = set.files.map((rel) => ({
        url: `/bench-formats/${rel.split('/').map(encodeURIComponent).join('/')}`,
        name: rel.split('/').slice(1).join('/'),
      }));
      await bench(page, { op: 'fetchFiles', files: list });
      const cpu0 = workerCpuSeconds(process.pid);
      const parse = await bench(page, { op: 'parseFiles' });
      const cpuSeconds = workerCpuBetween(cpu0, workerCpuSeconds(process.pid));
      await page.close();
      if (parse.J !== set.J || parse.I !== set.I)
        throw new Error(
          `formats: ${set.id}: read ${parse.J} × ${parse.I}, wrote ${set.J} × ${set.I}`,
        );
      log(
        `formats: ${set.id}: ${(parse.bytes / 1e6).toFixed(0)} MB in ${parse.seconds.toFixed(2)} s = ${parse.mbPerSecond.toFixed(1)} MB/s` +
          (cpuSeconds > 0
            ? `; worker CPU ${cpuSeconds.toFixed(2)} s = ${(parse.bytes / 1e6 / cpuSeconds).toFixed(1)} MB per CPU second`
            : ''),
      );
      r.formats.push({
        ...set,
        files: set.files.length,
        parse,
        ...(cpuSeconds > 0 ? { cpuSeconds } : {}),
      });
    }
  } finally {
    await ctx.unroute(route);
  }
}

function writeCsv(o: BrowserBenchOptions): string {
  const file = path.join(os.tmpdir(), `llm-nrm-bench-${o.J}x${o.I}-${o.seed}.wide.csv`);
  const t = performance.now();
  const { data } = simulateNominal({ J: o.J, I: o.I, seed: o.seed, concentration: 50 });
  writeFileSync(file, writeWideCsv(data));
  log(
    `ui: wrote ${file} (${(statSync(file).size / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
  return file;
}

async function phaseUi(
  ctx: BrowserContext,
  procs: ProcMemSampler,
  o: BrowserBenchOptions,
  r: BrowserResults,
) {
  const file = writeCsv(o);
  try {
    const page = await newPage(ctx, '/?nodemo', 'empty');
    await page.evaluate(wrapBridge);
    await page.evaluate(() => {
      const b = (window as unknown as Win).__bench;
      b.reset();
      b.autoFit = true;
    });
    procs.start();
    await page.getByTestId('file-input').setInputFiles(file);
    const changeAt = await page.evaluate(() => (window as unknown as Win).__bench.changeAt);
    if (changeAt === null) throw new Error('ui: the file input did not fire change');
    const timing = await waitShown(page, changeAt, 30 * 60_000);
    const rss = procs.stop();
    const tasks = await longtasks(page);
    const { states, lastLoad, lastFit } = await page.evaluate(() => {
      const b = (window as unknown as Win).__bench;
      return { states: b.states, lastLoad: b.lastLoad, lastFit: b.lastFit };
    });
    const at = (s: string) => states.find((m: StateMark) => m.state === s && m.t >= changeAt)?.t;
    const loadedAt = at('loaded') ?? at('error') ?? changeAt;
    const fittingAt = at('fitting') ?? loadedAt;
    const shownAt = changeAt + (timing.curvesMs ?? 0);
    r.ui = {
      J: o.J,
      I: o.I,
      bytes: statSync(file).size,
      timing,
      workerLoadSeconds: lastLoad?.seconds ?? null,
      fit: lastFit,
      loadTasks: taskStats(tasks, changeAt, loadedAt),
      fitTasks: taskStats(tasks, fittingAt, shownAt),
      fitTaskList: tasks
        .filter((t) => t.start >= fittingAt && t.start < shownAt)
        .map((t) => ({ beforeShownMs: shownAt - t.start, duration: t.duration })),
      rss,
    };
    log(
      `ui: loaded ${timing.loadedMs?.toFixed(0)} ms, curves ${timing.curvesMs?.toFixed(0)} ms` +
        (timing.error ? `, error: ${timing.error}` : ''),
    );
    await page.close();
  } finally {
    rmSync(file, { force: true });
  }
}

async function phaseFull(
  ctx: BrowserContext,
  procs: ProcMemSampler,
  o: BrowserBenchOptions,
  r: BrowserResults,
) {
  const full = o.full!;
  // The per-pass timings build four engines over the data; the fit then runs in a
  // fresh page and worker (as a user's would), so its memory is its own.
  let page = await newPage(ctx, '/?nodemo', 'empty');
  procs.start();
  await simulateMain(page, { ...o, ...full }, o.fullGate);
  const passes = await bench(page, {
    op: 'passes',
    engines: ['fused', 'wasm', 'wasm-f32', 'wasm-app'],
    minMs: 5000,
    maxReps: 8,
  });
  for (const p of passes)
    log(`full: ${p.engine} ${p.ms?.toFixed(0) ?? p.error} ms/pass ${p.detail ?? ''}`);
  const passesRss = procs.stop();
  await page.close();
  page = await newPage(ctx, '/?nodemo', 'empty');
  // runFit restarts both samplers: keep the simulation's peaks in this page too.
  procs.start();
  await page.evaluate(() => (window as unknown as Win).__bench.memStart(2000));
  const sim = await simulateMain(page, { ...o, ...full }, o.fullGate);
  const before = procs.stop();
  const memBefore = await page.evaluate(() => (window as unknown as Win).__bench.memStop());
  // The app's default fit (prior-strength search included) on the app's engine.
  const fast = await runFit(
    page,
    procs,
    'default fit, as the app runs it',
    {},
    'app',
    o.fullSeconds,
  );
  const maxN = (a: number | null, b: number | null) =>
    a === null ? b : b === null ? a : Math.max(a, b);
  const memory: MemReport = {
    ...fast.memory,
    uaPeak: maxN(fast.memory.uaPeak, memBefore.uaPeak),
    uaPeakWorker:
      (fast.memory.uaPeak ?? 0) >= (memBefore.uaPeak ?? 0)
        ? fast.memory.uaPeakWorker
        : memBefore.uaPeakWorker,
    heapPeak: maxN(fast.memory.heapPeak, memBefore.heapPeak),
    uaSamples: fast.memory.uaSamples + memBefore.uaSamples,
    heapSamples: fast.memory.heapSamples + memBefore.heapSamples,
  };
  const rss: RssPeak = {
    renderer: maxN(before.renderer, fast.rss.renderer),
    gpu: maxN(before.gpu, fast.rss.gpu),
    total: maxN(before.total, fast.rss.total),
  };
  r.full = {
    sim,
    passes,
    passesRss,
    fast,
    steps: o.steps,
    maxSeconds: o.fullSeconds,
    gate: o.fullGate,
    memory,
    rss,
  };
  await page.close();
}

function loadPrevious(): BrowserResults | null {
  try {
    return JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BrowserResults;
  } catch {
    return null;
  }
}

/** Runs the browser benchmark and writes its section of `o.out`. Returns the results. */
export async function runBrowserBench(o: BrowserBenchOptions): Promise<BrowserResults> {
  mkdirSync(CACHE, { recursive: true });
  const prev = loadPrevious();
  if (o.renderOnly) {
    if (!prev) throw new Error(`--render-only: no ${RESULTS_JSON} yet`);
    writeSection(o.out, 'browser', renderBrowserSection(prev));
    log(`wrote the browser section of ${o.out} from ${RESULTS_JSON}`);
    return prev;
  }
  // Keep the last results of phases not run now, unless they were measured at another shape.
  const keep = prev && prev.shape?.J === o.J && prev.shape?.I === o.I ? prev : null;
  const r: BrowserResults = {
    ...(keep ?? {}),
    shape: { J: o.J, I: o.I },
    chromium: '',
    env: keep?.env ?? null,
    machine: machine(),
    dates: { ...(keep?.dates ?? {}) },
  };
  const save = () => writeFileSync(RESULTS_JSON, JSON.stringify(r, null, 1));
  if (!o.skipBuild || !existsSync(path.join(DIST, 'index.html'))) build();
  const formatSets = o.phases.includes('formats') ? await writeFormats(o) : [];
  const server = await serve(o.port);
  const baseURL = `http://localhost:${o.port}`;
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    r.chromium = browser.version();
    const procs = new ProcMemSampler(process.pid);
    const ctx = await browser.newContext({ baseURL });
    await addHooks(ctx);
    {
      const page = await newPage(ctx, '/?nodemo', 'empty');
      const isolated = await page.evaluate(() => crossOriginIsolated);
      r.env = await bench(page, { op: 'environment' });
      log(`Chromium ${r.chromium}, page cross-origin isolated: ${isolated}; ${r.env.auto.reason}`);
      await page.close();
    }
    const want = (p: Phase) => o.phases.includes(p);
    const step = async (p: Phase, run: () => Promise<void>) => {
      if (!want(p)) return;
      await run();
      r.dates[p] = stamp();
      save();
    };
    await step('gpu', () => phaseGpu(ctx, o, r));
    await step('demo', () => phaseDemo(browser!, baseURL, r));
    if (want('engines') || want('parse') || want('fits')) await phaseMain(ctx, procs, o, r, save);
    await step('formats', () => phaseFormats(ctx, formatSets, r));
    await step('ui', () => phaseUi(ctx, procs, o, r));
    if (o.full) await step('full', () => phaseFull(ctx, procs, { ...o }, r));
    await ctx.close();
  } finally {
    save();
    await browser?.close();
    stopServer(server);
    rmSync(FORMATS_DIR, { recursive: true, force: true });
  }
  writeSection(o.out, 'browser', renderBrowserSection(r));
  log(`wrote the browser section of ${o.out}`);
  return r;
}

/** First trace point at or below `ce`. */
export function reachAt(trace: TracePoint[], ce: number): TracePoint | undefined {
  return trace.find((t) => t.crossEntropy <= ce);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: BROWSER_OPTIONS });
  try {
    await runBrowserBench(browserOptionsFrom(values));
  } catch (e) {
    console.error(e);
    process.exit(1);
  }
}
