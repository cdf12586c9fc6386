/**
 * The browser section of bench/results.md, from the results of run.ts.
 * Ratios in the prose, absolute values in brackets (a shared 2-core machine
 * makes absolute times noisy; ratios within one run are what to compare).
 */
import type { BenchPass } from '../../src/worker/bench';
import type { BrowserResults, FitRun, LongTaskStats, ShownTiming } from './run';
import type { MemReport } from './page';
import type { RssPeak } from './procmem';

const GiB = 2 ** 30;
const MiB = 2 ** 20;
/** Issue 26: every input format read at ≥ 20 MB/s in the app's worker. */
const FORMAT_TARGET = 20;

const n = (x: number) => x.toLocaleString('en-US');
const fmtMs = (ms: number | null | undefined) =>
  ms === null || ms === undefined || !Number.isFinite(ms)
    ? '—'
    : ms < 10
      ? `${ms.toFixed(2)} ms`
      : ms < 100
        ? `${ms.toFixed(1)} ms`
        : `${n(Math.round(ms))} ms`;
const fmtS = (s: number | null | undefined) =>
  s === null || s === undefined || !Number.isFinite(s)
    ? '—'
    : s < 10
      ? `${s.toFixed(2)} s`
      : `${n(Math.round(s))} s`;
const fmtMiB = (b: number | null | undefined) =>
  b === null || b === undefined ? '—' : `${n(Math.round(b / MiB))} MiB`;
const ratio = (a: number, b: number) => {
  const r = a / b;
  return r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r >= 0.1 ? r.toFixed(2) : r.toFixed(3);
};
const shape = (J: number, I: number) => `${J} × ${n(I)}`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

function passTable(passes: BenchPass[], label: (p: BenchPass) => string | null): string[] {
  const fused = passes.find((p) => p.engine === 'fused')?.ms ?? null;
  const withLabel = passes.some((p) => label(p) !== null);
  return [
    `| engine |${withLabel ? ' runs on |' : ''} time per pass vs fused | set-up + first pass |`,
    `|---|${withLabel ? '---|' : ''}---|---|`,
    ...passes.map((p) => {
      const l = withLabel ? ` ${label(p) ?? 'CPU'} |` : '';
      const t =
        p.ms === null
          ? `unavailable: ${(p.error ?? '').replace(/\|/g, '/').slice(0, 160)}`
          : fused
            ? `${ratio(p.ms, fused)}× (${fmtMs(p.ms)}, ${p.reps} passes timed)`
            : fmtMs(p.ms);
      const engine = p.engine === 'fused-app' ? 'fused as the app runs it' : p.engine;
      const name = p.detail ? `${engine} (${p.detail})` : engine;
      return `| ${name} |${l} ${t} | ${p.ms === null ? '—' : fmtMs(p.setupMs)} |`;
    }),
  ];
}

function memCell(m: MemReport): string {
  if (m.uaPeak !== null)
    return `${fmtMiB(m.uaPeak)} (worker ${fmtMiB(m.uaPeakWorker)}; ${m.uaSamples} samples)`;
  if (m.heapPeak !== null)
    return `${fmtMiB(m.heapPeak)} (performance.memory, main thread only${m.uaError ? `; measureUserAgentSpecificMemory failed: ${m.uaError}` : ''})`;
  return '—';
}

const rssCell = (r: RssPeak) =>
  r.renderer === null ? '—' : `${fmtMiB(r.renderer)} (all processes ${fmtMiB(r.total)})`;

const taskRow = (what: string, t: LongTaskStats) =>
  `| ${what} | ${fmtS(t.windowMs / 1000)} | ${t.count ? fmtMs(t.maxMs) : 'none'} | ${t.count} | ${fmtMs(t.blockingMs)} |`;

const shownRow = (what: string, t: ShownTiming) =>
  `| ${what} | ${fmtMs(t.loadedMs)} | ${fmtMs(t.curvesMs)}${t.error ? ` — error: ${t.error}` : ''} |`;

function gpuLabel(r: BrowserResults, p: BenchPass): string | null {
  const env = r.env;
  if (p.engine === 'webgpu-fused' || p.engine === 'tfjs-webgpu')
    return `WebGPU: ${env?.webgpuAdapter ?? 'no adapter'}${/swiftshader/i.test(env?.webgpuAdapter ?? '') ? ' (SwiftShader, software)' : ''}`;
  if (p.engine === 'tfjs-webgl')
    return `WebGL2: ${env?.webglRenderer ?? 'renderer hidden or none'}${/swiftshader/i.test(env?.webglRenderer ?? '') ? ' (SwiftShader, software)' : ''}`;
  return null;
}

function fitRow(f: FitRun, adam: FitRun): string {
  const reach = f.trace.find((t) => t.crossEntropy <= adam.crossEntropy);
  const ceRel = ((f.crossEntropy - adam.crossEntropy) / adam.crossEntropy) * 100;
  return [
    '',
    f.engineReason?.includes('shard')
      ? `${f.label} (${f.engineReason.split('; ').pop()})`
      : f.label,
    n(f.passes),
    `${ratio(f.seconds, adam.seconds)} (${fmtS(f.seconds)})`,
    fmtMs((f.seconds * 1000) / f.passes),
    f.crossEntropy.toFixed(2),
    `${ceRel >= 0 ? '+' : ''}${ceRel.toFixed(3)}%`,
    reach
      ? `${n(reach.passes)} passes, ${ratio(reach.seconds, adam.seconds)} of Adam's time`
      : 'not reached',
    String(f.converged),
    memCell(f.memory),
    rssCell(f.rss),
    '',
  ]
    .join(' | ')
    .trim();
}

const since = (ms: number) => (ms < 1000 ? fmtMs(ms) : fmtS(ms / 1000));

/** Where in the fit window (Fit clicked → curves shown) each long task started. */
function whenTasks(list: { beforeShownMs: number; duration: number }[], windowMs: number): string {
  const phase = (t: { beforeShownMs: number }) =>
    windowMs - t.beforeShownMs < 2000
      ? 'as the fit started'
      : t.beforeShownMs < 2000
        ? 'as the results rendered'
        : 'while the fit ran';
  return (
    `By start time: ` +
    list
      .map(
        (t) =>
          `${since(windowMs - t.beforeShownMs)} after Fit was clicked (${fmtMs(t.duration)}, ${phase(t)})`,
      )
      .join('; ') +
    '.'
  );
}

export function renderBrowserSection(r: BrowserResults): string[] {
  const L: string[] = [];
  const env = r.env;
  const stamps = [...new Set(Object.values(r.dates))].sort();
  const first = stamps[0] ?? '';
  const last = stamps[stamps.length - 1] ?? '';
  // "2026-11-29 15:27–15:41 UTC" within one day.
  const dates =
    stamps.length > 1
      ? [`${first}–${last.slice(0, 10) === first.slice(0, 10) ? last.slice(11) : last} UTC`]
      : stamps.map((x) => `${x} UTC`);
  L.push(
    `## Browser (headless Chromium, production build, worker)`,
    ``,
    `Chromium ${r.chromium} headless with the e2e suite's launch arguments (\`--disable-gpu\`, ` +
      `\`--enable-unsafe-webgpu\`), the production build served by \`vite preview\` ` +
      `(page cross-origin isolated: ${env?.crossOriginIsolated ?? '?'}); data simulated and fitted ` +
      `in the app's Web Worker. Machine: ${r.machine}, navigator.hardwareConcurrency ` +
      `${env?.hardwareConcurrency ?? '?'}. WebGPU adapter: ${env?.webgpuAdapter ?? 'none'}; WebGL2 ` +
      `renderer: ${env?.webglRenderer ?? 'none'}. Engine \`auto\` here: ${env?.auto.name ?? '?'} ` +
      `(${env?.auto.reason ?? '?'}).`,
    `Run: ${dates.join(', ')}, \`npx tsx bench/browser/run.ts\` (\`npm run bench\` runs it after ` +
      `the Node benchmark). Ratios are within one run; absolute times (in brackets) are noisy on ` +
      `a shared 2-core machine.`,
    ``,
  );

  if (r.engines) {
    const { sim, passes } = r.engines;
    const fused = passes.find((p) => p.engine === 'fused')?.ms ?? null;
    const wasm = passes.find((p) => p.engine === 'tfjs-wasm')?.ms ?? null;
    L.push(
      `### Loss+gradient pass, per engine (browser worker, ${shape(sim.J, sim.I)}, mean K ${sim.meanK.toFixed(2)}, ${n(sim.nCells)} cells)`,
      ``,
    );
    if (fused && wasm)
      L.push(
        `tfjs-wasm takes ${ratio(wasm, fused)}× the fused engine's time per pass ` +
          `(${fmtMs(wasm)} vs ${fmtMs(fused)}).` +
          (r.engines.node
            ? ` The browser's single-threaded fused pass takes ` +
              `${ratio(fused, r.engines.node.fusedMs)}× Node's (Node section, run ` +
              `${r.engines.node.date}: ${fmtMs(fused)} vs ${fmtMs(r.engines.node.fusedMs)}).`
            : ''),
        ``,
      );
    L.push(...passTable(passes, () => null), ``);
  }

  if (r.gpu) {
    const { sim, passes } = r.gpu;
    const fused = passes.find((p) => p.engine === 'fused')?.ms ?? null;
    const slowest = passes.filter((p) => p.ms !== null && fused);
    L.push(
      `### GPU engines at a small shape (${shape(sim.J, sim.I)}, ${n(sim.nCells)} cells; SwiftShader, software)`,
      ``,
      `No GPU here: WebGPU and WebGL run on SwiftShader, a software rasteriser on the CPU, so ` +
        `these say nothing about GPU speed, only that the engines run.` +
        (fused && slowest.length
          ? ' Time per pass vs fused: ' +
            slowest
              .filter((p) => p.engine !== 'fused')
              .map((p) => `${p.engine} ${ratio(p.ms!, fused)}×`)
              .join(', ') +
            ` (fused ${fmtMs(fused)}).`
          : ''),
      ``,
      ...passTable(passes, (p) => gpuLabel(r, p)),
      ``,
    );
  }

  if (r.fits) {
    const { sim, adam, fast } = r.fits;
    const reach = fast.trace.find((t) => t.crossEntropy <= adam.crossEntropy);
    L.push(
      `### Optimisers (browser worker, fused engine, ${shape(sim.J, sim.I)})`,
      ``,
      `The fast optimiser takes ${ratio(fast.seconds, adam.seconds)} of Adam-${r.fits.steps}'s wall ` +
        `time (${fmtS(fast.seconds)} vs ${fmtS(adam.seconds)}) and ${ratio(fast.passes, adam.passes)} of ` +
        `its passes; ` +
        (reach
          ? `it reaches Adam-${r.fits.steps}'s cross-entropy after ${ratio(reach.seconds, adam.seconds)} ` +
            `of Adam's time (${n(reach.passes)} passes, ${fmtS(reach.seconds)}).`
          : `it does not reach Adam-${r.fits.steps}'s cross-entropy (it optimises the well-posed ` +
            `objective, Adam the paper's).`) +
        (r.fits.fastApp
          ? ` As the app runs it (${r.fits.fastApp.engineReason.split('; ').pop()}) the fast fit ` +
            `takes ${ratio(r.fits.fastApp.seconds, adam.seconds)} of Adam's time ` +
            `(${fmtS(r.fits.fastApp.seconds)}); its gain depends on the second core being free.`
          : '') +
        ` Peak memory of page + worker: ${memCell(adam.memory)} during Adam, ${memCell(fast.memory)} ` +
        `during fast.`,
      ``,
      `| optimiser | passes | wall time vs Adam | per pass | cross-entropy | CE vs Adam | reaches Adam's CE at | converged | peak memory, page + worker (measureUserAgentSpecificMemory) | peak renderer RSS |`,
      `|---|---|---|---|---|---|---|---|---|---|`,
      fitRow(adam, adam),
      fitRow(fast, adam),
      ...(r.fits.fastApp ? [fitRow(r.fits.fastApp, adam)] : []),
      ``,
      `Adam and the first fast run use the single-threaded fused loop (as in the Node table); ` +
        `"as the app runs it" is what the app's fit uses for 'fused': the loop spread over shard ` +
        `workers (one per core, up to 8) when there are ≥ 20k cells per worker.`,
      ``,
    );
  }

  if (r.ui || r.fits) {
    L.push(`### Main-thread responsiveness (PerformanceObserver 'longtask', buffered)`, ``);
    if (r.ui) {
      const u = r.ui.fitTasks;
      L.push(
        `While the app fits the ${shape(r.ui.J, r.ui.I)} data set in its worker (Fit pressed in ` +
          `the UI, progress and objective chart live), the longest main-thread task is ` +
          (u.count
            ? `${ratio(u.maxMs, 50)}× the 50 ms long-task threshold (${fmtMs(u.maxMs)}), ` +
              `${u.count} ${u.count === 1 ? 'task' : 'tasks'} over 50 ms in ${fmtS(u.windowMs / 1000)}.`
            : `under the 50 ms threshold: no long tasks in ${fmtS(u.windowMs / 1000)}.`) +
          (r.ui.fitTaskList?.length ? ' ' + whenTasks(r.ui.fitTaskList, u.windowMs) : ''),
        ``,
      );
    }
    L.push(
      `| while | window | longest task | tasks > 50 ms | blocking time (Σ over 50 ms) |`,
      `|---|---|---|---|---|`,
    );
    if (r.ui) {
      L.push(
        taskRow(
          `UI: loading the ${shape(r.ui.J, r.ui.I)} CSV (file input → loaded)`,
          r.ui.loadTasks,
        ),
        taskRow(`UI: fitting it (fast, Fit clicked → fitted with curves)`, r.ui.fitTasks),
      );
    }
    if (r.fits) {
      L.push(
        taskRow(
          `bench: ${r.fits.adam.label} in the worker (memory sampled every 2 s)`,
          r.fits.adam.longtasks,
        ),
        taskRow(
          `bench: ${r.fits.fast.label} in the worker (memory sampled every 2 s)`,
          r.fits.fast.longtasks,
        ),
        ...(r.fits.fastApp
          ? [
              taskRow(
                `bench: ${r.fits.fastApp.label} in the worker (memory sampled every 2 s)`,
                r.fits.fastApp.longtasks,
              ),
            ]
          : []),
      );
    }
    L.push(``);
  }

  if (r.demo || r.ui) {
    L.push(`### Time to the first curves`, ``);
    if (r.ui?.timing.curvesMs && r.ui.fit)
      L.push(
        `For the ${shape(r.ui.J, r.ui.I)} CSV (${n(Math.round(r.ui.bytes / 1e6))} MB), reading takes ` +
          `${ratio(r.ui.timing.loadedMs ?? NaN, r.ui.timing.curvesMs)} of the time to curves and the ` +
          `fit (${r.ui.fit.engine}, ${n(r.ui.fit.passes)} passes) ` +
          `${ratio(r.ui.fit.seconds * 1000, r.ui.timing.curvesMs)} ` +
          `(${fmtMs(r.ui.timing.loadedMs)} and ${fmtS(r.ui.fit.seconds)} of ${fmtS(r.ui.timing.curvesMs / 1000)}).` +
          (r.ui.rss.renderer !== null
            ? ` Peak renderer RSS from picking the file to the curves: ${ratio(r.ui.rss.renderer, 2 * GiB)} ` +
              `of 2 GiB (${fmtMiB(r.ui.rss.renderer)}).`
            : ''),
        ``,
      );
    L.push(`| scenario | data loaded | first curves, fitted (ICC paths drawn) |`, `|---|---|---|`);
    if (r.demo) {
      const c = r.demo.click;
      const med = (k: 'loadedMs' | 'curvesMs') =>
        median(c.map((t) => t[k]).filter((x): x is number => x !== null));
      L.push(
        shownRow(
          'demo (18 × 345 NAEP): first visit, empty cache (from navigation start)',
          r.demo.firstVisit,
        ),
        shownRow(
          'demo: reload (the saved session restored from IndexedDB, no fit; from navigation start)',
          r.demo.reload,
        ),
        `| demo: "Load demo" clicked (median of ${c.length}) | ${fmtMs(med('loadedMs'))} | ${fmtMs(med('curvesMs'))} (${c.map((t) => fmtMs(t.curvesMs)).join(', ')}) |`,
      );
    }
    if (r.ui)
      L.push(
        shownRow(
          `${shape(r.ui.J, r.ui.I)} wide CSV via the file input, Fit clicked on load (from the input's change event)`,
          r.ui.timing,
        ),
      );
    L.push(``);
  }

  if (r.parse || r.ui || r.formats) {
    L.push(`### Parse throughput (target ≥ 50 MB/s in the worker; MB = 10⁶ bytes)`, ``);
    const rows: string[] = [];
    let lead = '';
    if (r.parse) {
      const p = r.parse.parse;
      rows.push(
        `| the worker's loader on a Blob (1 MiB chunks, as the app's load) | ${n(Math.round(p.bytes / 1e6))} MB, ${n(p.rows)} rows | ${fmtS(p.seconds)} | ${p.mbPerSecond.toFixed(0)} | ${ratio(p.mbPerSecond, 50)}× |`,
      );
      lead = `The worker's loader reads the ${shape(r.parse.sim.J, r.parse.sim.I)} wide CSV at ${ratio(p.mbPerSecond, 50)}× the 50 MB/s target (${p.mbPerSecond.toFixed(0)} MB/s)`;
    }
    if (r.ui) {
      const u = r.ui;
      if (u.workerLoadSeconds) {
        const mbs = u.bytes / 1e6 / u.workerLoadSeconds;
        rows.push(
          `| UI: the worker's \`load\` of the picked file (LoadResult.seconds) | ${n(Math.round(u.bytes / 1e6))} MB | ${fmtS(u.workerLoadSeconds)} | ${mbs.toFixed(0)} | ${ratio(mbs, 50)}× |`,
        );
      }
      if (u.timing.loadedMs) {
        const mbs = u.bytes / 1e6 / (u.timing.loadedMs / 1000);
        rows.push(
          `| UI: file input change → \`loaded\` (includes the copy to the page and rendering) | ${n(Math.round(u.bytes / 1e6))} MB | ${fmtS(u.timing.loadedMs / 1000)} | ${mbs.toFixed(0)} | ${ratio(mbs, 50)}× |`,
        );
        lead +=
          (lead ? '; ' : 'In the UI, ') +
          `from picking the file to the \`loaded\` state it is ${ratio(mbs, 50)}× (${mbs.toFixed(0)} MB/s)`;
      }
    }
    if (lead) L.push(lead + '.', ``);
    L.push(`| path | size | time | MB/s | vs target |`, `|---|---|---|---|---|`, ...rows, ``);
    if (r.formats?.length) {
      const csv = r.parse?.parse.mbPerSecond;
      const slowest = r.formats.reduce((a, b) =>
        b.parse.mbPerSecond < a.parse.mbPerSecond ? b : a,
      );
      const nodeMbs = (f: (typeof r.formats)[number]) =>
        f.nodeSeconds ? (f.bytes / 1e6 / f.nodeSeconds).toFixed(1) : '—';
      const cpuMbs = (f: (typeof r.formats)[number]) =>
        f.cpuSeconds ? (f.bytes / 1e6 / f.cpuSeconds).toFixed(1) : '—';
      L.push(
        `Every input format in the app's worker against issue 26's ${FORMAT_TARGET} MB/s: the slowest, ${slowest.label}, at ${ratio(slowest.parse.mbPerSecond, FORMAT_TARGET)}× (${slowest.parse.mbPerSecond.toFixed(1)} MB/s); ` +
          `${r.formats.filter((f) => f.parse.mbPerSecond >= FORMAT_TARGET).length} of ${r.formats.length} formats reach it.`,
        ``,
        `Each format written in Node from the ${shape(r.shape.J, r.shape.I)} cells by the unit tests' builders (whole LLMs until about the target size), read once in Node as the CLI reads a folder (\`loadDatasetFromPaths\`, cold), then fetched by the app's worker (same origin, through a Playwright route) and read by its loader from Blobs (fetch time excluded, one cold run), one fresh worker per format` +
          (csv ? `; the 101 MB wide CSV above, same run: ${csv.toFixed(0)} MB/s` : '') +
          `. MB are the files' bytes (Parquet and .eval are compressed, so per row they hold several times more than these MB suggest). ` +
          `Worker MB/s is wall time; MB per CPU s divides by the worker thread's CPU time during the parse (/proc), which other load on the machine does not stretch (on an idle machine the two agree).`,
        ``,
        `| format | LLMs × items | files | size | Node MB/s | worker time | worker MB/s | vs ${FORMAT_TARGET} MB/s | worker MB per CPU s | rows/s |`,
        `|---|---|---|---|---|---|---|---|---|---|`,
        ...r.formats.map(
          (f) =>
            `| ${f.label} | ${shape(f.J, f.I)} | ${n(f.files)} | ${n(Math.round(f.bytes / 1e6))} MB | ${nodeMbs(f)} | ${fmtS(f.parse.seconds)} | ${f.parse.mbPerSecond.toFixed(1)} | ${ratio(f.parse.mbPerSecond, FORMAT_TARGET)}× | ${cpuMbs(f)} | ${n(Math.round((f.J * f.I) / f.parse.seconds))} |`,
        ),
        ``,
      );
    }
  }

  if (r.full) {
    const f = r.full;
    const pass = (e: string) => f.passes.find((p) => p.engine === e);
    const single = pass('fused');
    const wasm = pass('wasm');
    const app = pass('wasm-app');
    const ms = single?.ms ?? null;
    const wasmMs = wasm?.ms ?? null;
    const appMs = app?.ms ?? null;
    const adamS = appMs !== null ? (appMs * f.steps) / 1000 : null;
    const peak = f.rss.renderer;
    const fit = f.fast;
    const paper = f.sim.J === 189 && f.sim.I === 31554;
    L.push(
      `### ${paper ? "The paper's full shape" : 'Full shape'} (${shape(f.sim.J, f.sim.I)}, mean K ${f.sim.meanK.toFixed(2)}, ${n(f.sim.nCells)} cells, gate ${f.gate ?? 'open'} in the simulated truth)`,
      ``,
    );
    const prose: string[] = [];
    if (ms !== null && wasmMs !== null)
      prose.push(
        `A single-threaded wasm pass takes ${ratio(wasmMs, ms)}× the fused engine's ` +
          `(${fmtMs(wasmMs)} vs ${fmtMs(ms)}).`,
      );
    if (wasmMs !== null && appMs !== null)
      prose.push(
        `As the app runs it (${app?.detail ?? 'one thread'}) a pass takes ${ratio(appMs, wasmMs)}× ` +
          `the single-threaded one (${fmtMs(appMs)}).`,
      );
    const search = fit.search
      ? `${n(fit.search.passes)} passes of prior-strength search (λ = ${fit.search.lambda}; ${fit.search.reason}) and ${n(fit.passes)} of the final fit`
      : `${n(fit.passes)} passes`;
    prose.push(
      fit.finished
        ? `The app's default fit took ${fmtS(fit.seconds)} (${search}); converged ${fit.converged}` +
            ` (stopped: ${fit.stopReason ?? '?'}, scaled |g| ${fit.gradNorm?.toExponential(1) ?? '?'}). ` +
            `The goal is 60 s and converged: ${fit.seconds <= 60 && fit.converged ? 'met' : 'NOT met'}.`
        : `The app's default fit was stopped at the ${fmtS(f.maxSeconds)} cap after ` +
            `${n(fit.passes)} passes: the 60 s goal is NOT met.`,
    );
    if (peak !== null)
      prose.push(
        `Peak renderer memory (page + workers, RSS) while the data are made and fitted in a fresh ` +
          `page is ${ratio(peak, 2 * GiB)} of the 2 GiB goal ` +
          `(${fmtMiB(peak)}); measureUserAgentSpecificMemory peaks at ${memCell(f.memory)}.`,
      );
    const passRow = (what: string, p: BenchPass | undefined) =>
      `| ${what}${p?.detail ? ` (${p.detail})` : ''}, per loss+gradient pass | ${p?.ms != null ? fmtMs(p.ms) : `— ${p?.error ?? ''}`} (set-up + first pass ${fmtMs(p?.setupMs)}) |`;
    L.push(
      prose.join(' '),
      ``,
      `| measurement | value |`,
      `|---|---|`,
      passRow('fused, single-threaded', single),
      passRow('wasm, single-threaded', wasm),
      passRow('wasm as the app runs it', app),
      `| ${fit.label} (${fit.engineReason}) | ${fit.finished ? `${search}; ${fmtS(fit.seconds)}, CE ${fit.crossEntropy.toFixed(2)}, converged ${fit.converged}` : `not finished: ${fit.error}; ${n(fit.passes)} passes in ${fmtS(fit.seconds)}`} |`,
      `| Adam-${f.steps} (paper), EXTRAPOLATED (not run), wasm as the app runs it | ${fmtS(adamS)} (= ${fmtMs(appMs)} per pass × ${n(f.steps)}) |`,
      `| peak memory, page + workers (measureUserAgentSpecificMemory) | ${memCell(f.memory)} |`,
      `| peak RSS, renderer (page + workers), data made and fitted in a fresh page | ${fmtMiB(f.rss.renderer)}${peak !== null ? ` — ${peak <= 2 * GiB ? 'within' : 'OVER'} the 2 GiB goal` : ''} |`,
      ...(f.passesRss
        ? [
            `| peak RSS, renderer, in the page that timed the passes (four engines built) | ${fmtMiB(f.passesRss.renderer)} |`,
          ]
        : []),
      `| peak RSS, all browser processes | ${fmtMiB(f.rss.total)} |`,
      `| simulating the data in the worker (not on a user's path) | ${fmtS(f.sim.seconds)} |`,
      ``,
    );
  }
  return L;
}
