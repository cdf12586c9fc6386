/**
 * Resident memory of Chromium's processes, read from /proc (Linux) every
 * `everyMs`: the renderer (which runs the page and its Web Worker), the GPU
 * process and the sum over every Chromium process descended from `rootPid`
 * (this Node process: Playwright launches the browser as its child, so other
 * people's browsers on the machine do not count). The page pays nothing for
 * it, unlike an in-page sampler. Elsewhere it reports nulls.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface RssPeak {
  /** Largest single renderer process (page + worker), bytes. */
  renderer: number | null;
  gpu: number | null;
  /** All of the browser's processes together. */
  total: number | null;
}

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function children(): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return kids;
  }
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    const stat = read(`/proc/${n}/stat`);
    if (!stat) continue;
    // pid (comm) state ppid ...: comm may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = kids.get(ppid) ?? [];
    list.push(Number(n));
    kids.set(ppid, list);
  }
  return kids;
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
  return m ? Number(m[1]) * 1024 : 0;
}

export class ProcMemSampler {
  private timer: ReturnType<typeof setInterval> | null = null;
  private peak: RssPeak = { renderer: null, gpu: null, total: null };

  constructor(
    private readonly rootPid: number | undefined,
    private readonly everyMs = 500,
  ) {}

  /** Starts a fresh peak. */
  start(): void {
    this.stop();
    this.peak = { renderer: null, gpu: null, total: null };
    if (!this.rootPid) return;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  /** Stops sampling and returns the peaks since `start`. */
  stop(): RssPeak {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return { ...this.peak };
  }

  private sample(): void {
    const kids = children();
    const todo = [this.rootPid!];
    let total = 0;
    const max = (a: number | null, b: number) => Math.max(a ?? 0, b);
    while (todo.length) {
      const pid = todo.pop()!;
      todo.push(...(kids.get(pid) ?? []));
      const cmd = read(`/proc/${pid}/cmdline`) ?? '';
      if (!/chrom/i.test(cmd)) continue;
      const rss = rssBytes(pid);
      total += rss;
      if (cmd.includes('--type=renderer')) this.peak.renderer = max(this.peak.renderer, rss);
      else if (cmd.includes('--type=gpu-process')) this.peak.gpu = max(this.peak.gpu, rss);
    }
    this.peak.total = max(this.peak.total, total);
  }
}

/**
 * CPU time (user + system, seconds) of each Web Worker thread of the browser's
 * processes descended from `rootPid`, by `pid/tid` (Linux /proc; empty
 * elsewhere). Read before and after one worker call, the difference is that
 * worker's CPU time, which the machine's other load does not stretch as it
 * stretches the wall time.
 */
export function workerCpuSeconds(rootPid: number): Map<string, number> {
  const out = new Map<string, number>();
  const kids = children();
  const todo = [rootPid];
  const tick = 100; // USER_HZ: /proc counts CPU time in 1/100 s on Linux
  while (todo.length) {
    const pid = todo.pop()!;
    todo.push(...(kids.get(pid) ?? []));
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (!stat || !stat.slice(stat.indexOf('(') + 1).startsWith('DedicatedWorker')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${pid}/${tid}`, (Number(f[11]) + Number(f[12])) / tick);
    }
  }
  return out;
}

/** The CPU seconds the worker threads spent between two `workerCpuSeconds` readings. */
export function workerCpuBetween(a: Map<string, number>, b: Map<string, number>): number {
  let s = 0;
  for (const [k, v] of b) s += v - (a.get(k) ?? 0);
  return s;
}
