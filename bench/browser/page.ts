/**
 * What the benchmark installs in the app's page (Playwright init script, run
 * before the app's own scripts): a buffered 'longtask' observer, a timeline of
 * the app's `data-state`, when the first ICC curves appear, when a file input
 * changes, an optional "click Fit as soon as the data is loaded", and a memory
 * sampler (`performance.measureUserAgentSpecificMemory()` where the page is
 * cross-origin isolated, `performance.memory` as a fallback).
 *
 * `installPageHooks` is serialised by Playwright: it must not refer to
 * anything outside its own body.
 */

export interface LongTask {
  start: number;
  duration: number;
}

export interface StateMark {
  state: string | null;
  t: number;
}

export interface MemReport {
  /** Largest `measureUserAgentSpecificMemory().bytes` seen (page + its workers), or null. */
  uaPeak: number | null;
  /** The part of that sample attributed to dedicated workers. */
  uaPeakWorker: number | null;
  uaSamples: number;
  uaError: string | null;
  /** Largest `performance.memory.usedJSHeapSize` (main thread only), or null. */
  heapPeak: number | null;
  heapSamples: number;
}

export interface PageBench {
  longtasks: LongTask[];
  states: StateMark[];
  curvesAt: number | null;
  changeAt: number | null;
  /** Click Fit the moment `data-state` becomes 'loaded' (a user who never hesitates). */
  autoFit: boolean;
  fitClickedAt: number | null;
  lastLoad: { seconds: number } | null;
  lastFit: { seconds: number; passes: number; crossEntropy: number; engine: string } | null;
  /** Forgets marks; returns performance.now(). */
  reset(): number;
  memStart(everyMs: number): void;
  memStop(): Promise<MemReport>;
}

export function installPageHooks(): void {
  const b = {
    longtasks: [],
    states: [],
    curvesAt: null,
    changeAt: null,
    autoFit: false,
    fitClickedAt: null,
    lastLoad: null,
    lastFit: null,
  } as unknown as PageBench;
  (window as unknown as { __bench: PageBench }).__bench = b;

  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        b.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No longtask support: the report says none were seen.
  }

  const fitButton = () =>
    [...document.querySelectorAll('button')].find(
      (x) => x.textContent?.trim() === 'Fit' && !x.disabled,
    );
  let last: string | null | undefined;
  const check = () => {
    const st = document.querySelector('.app')?.getAttribute('data-state') ?? null;
    if (st !== last) {
      last = st;
      b.states.push({ state: st, t: performance.now() });
      if (st === 'loaded' && b.autoFit) {
        b.autoFit = false;
        setTimeout(() => {
          b.fitClickedAt = performance.now();
          fitButton()?.click();
        }, 0);
      }
    }
    if (b.curvesAt === null && document.querySelector('figure[data-chart^="icc-"] path.trace'))
      b.curvesAt = performance.now();
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-state'],
  });
  document.addEventListener(
    'change',
    (e) => {
      if ((e.target as Element | null)?.matches?.('input[type=file]'))
        b.changeAt = performance.now();
    },
    true,
  );

  b.reset = () => {
    const t = performance.now();
    b.states = [{ state: last ?? null, t }];
    b.curvesAt = null;
    b.changeAt = null;
    b.fitClickedAt = null;
    b.lastLoad = null;
    b.lastFit = null;
    return t;
  };

  type UaMemory = {
    bytes: number;
    breakdown: { bytes: number; attribution: { scope?: string }[] }[];
  };
  type Perf = Performance & {
    measureUserAgentSpecificMemory?: () => Promise<UaMemory>;
    memory?: { usedJSHeapSize: number };
  };
  let run: { stop: boolean; done: Promise<void>; report: MemReport } | null = null;
  b.memStart = (everyMs) => {
    const report: MemReport = {
      uaPeak: null,
      uaPeakWorker: null,
      uaSamples: 0,
      uaError: null,
      heapPeak: null,
      heapSamples: 0,
    };
    const me = { stop: false, done: Promise.resolve(), report };
    me.done = (async () => {
      const perf = performance as Perf;
      while (!me.stop) {
        if (typeof perf.measureUserAgentSpecificMemory === 'function' && crossOriginIsolated) {
          try {
            const r = await perf.measureUserAgentSpecificMemory();
            report.uaSamples++;
            if (r.bytes > (report.uaPeak ?? -1)) {
              report.uaPeak = r.bytes;
              report.uaPeakWorker = r.breakdown
                .filter((x) => x.attribution.some((a) => a.scope === 'DedicatedWorkerGlobalScope'))
                .reduce((n, x) => n + x.bytes, 0);
            }
          } catch (e) {
            report.uaError = String(e);
          }
        }
        if (perf.memory) {
          report.heapSamples++;
          report.heapPeak = Math.max(report.heapPeak ?? 0, perf.memory.usedJSHeapSize);
        }
        await new Promise((r) => setTimeout(r, everyMs));
      }
    })();
    run = me;
  };
  b.memStop = async () => {
    if (!run) throw new Error('memStop without memStart');
    const me = run;
    me.stop = true;
    await me.done;
    run = null;
    return me.report;
  };
}

/** Wraps the app's bridge so the page records what the worker reported for a load and a fit. */
export function wrapBridge(): void {
  type Bridge = {
    load(...a: unknown[]): Promise<{ seconds: number }>;
    fit(
      ...a: unknown[]
    ): Promise<{ seconds: number; passes: number; crossEntropy: number; engine: string }>;
  };
  const w = window as unknown as { __bench: PageBench; __nrmWorkbench: { bridge: Bridge } };
  const bridge = w.__nrmWorkbench.bridge;
  const load = bridge.load.bind(bridge);
  const fit = bridge.fit.bind(bridge);
  bridge.load = async (...a) => {
    const r = await load(...a);
    w.__bench.lastLoad = { seconds: r.seconds };
    return r;
  };
  bridge.fit = async (...a) => {
    const r = await fit(...a);
    w.__bench.lastFit = {
      seconds: r.seconds,
      passes: r.passes,
      crossEntropy: r.crossEntropy,
      engine: r.engine,
    };
    return r;
  };
}
