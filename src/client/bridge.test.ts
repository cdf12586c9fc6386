/**
 * The bridge against a fake worker: a MessageChannel with a stub API exposed
 * on the far end, so queueing, cancelling and recovery run for real through
 * comlink without a browser.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type FitJson, type FitProgress } from '../core/fit/types';
import { WorkerBridge, WorkerCrashedError } from './bridge';
import { tinyDataset, tinyFit } from '../core/testing/tiny';

interface StubState {
  cancelled: number[];
  datasets: unknown[];
  /** When true, fit ignores cancel and never settles (a stuck worker). */
  stuck: boolean;
  /** When true, ping never answers (a hung worker). */
  deaf: boolean;
}

function stubApi(st: StubState) {
  const waiting = new Map<number, () => void>();
  return {
    async fit(_s: unknown, onProgress: (p: FitProgress) => void, id: number): Promise<FitJson> {
      onProgress({ step: 1, passes: 1, objective: 5, elapsedMs: 1, maxSteps: 10 });
      await new Promise<void>((resolve, reject) => {
        if (st.stuck) return;
        waiting.set(id, () => {
          const e = new Error('cancelled');
          e.name = 'AbortError';
          reject(e);
        });
        setTimeout(resolve, 30);
      });
      return tinyFit();
    },
    async load() {
      const ds = tinyDataset();
      return { dataset: ds, summary: { J: ds.J }, seconds: 0 };
    },
    cancel(id: number) {
      st.cancelled.push(id);
      if (!st.stuck) waiting.get(id)?.();
    },
    useDataset(ds: unknown) {
      st.datasets.push(ds);
    },
    resolveEngine: async () => ({ name: 'fused', reason: 'stub' }),
    ping: () => (st.deaf ? new Promise(() => undefined) : true),
    simulateFailure() {},
  };
}

/** A Worker look-alike over a MessageChannel; 'error' events are ours to dispatch. */
class FakeWorker extends EventTarget {
  terminated = false;
  constructor(
    private readonly port: MessagePort,
    readonly state: StubState,
  ) {
    super();
  }
  postMessage(msg: unknown, transfer?: Transferable[]) {
    this.port.postMessage(msg, transfer ?? []);
  }
  override addEventListener(type: string, cb: EventListenerOrEventListenerObject | null) {
    if (type === 'message') {
      this.port.addEventListener('message', cb as EventListener);
      this.port.start();
    } else super.addEventListener(type, cb);
  }
  override removeEventListener(type: string, cb: EventListenerOrEventListenerObject | null) {
    if (type === 'message') this.port.removeEventListener('message', cb as EventListener);
    else super.removeEventListener(type, cb);
  }
  terminate() {
    this.terminated = true;
    this.port.close();
  }
}

const workers: FakeWorker[] = [];
function makeBridge(init: Partial<StubState> = {}) {
  const spawn = () => {
    const ch = new MessageChannel();
    const st: StubState = { cancelled: [], datasets: [], stuck: false, deaf: false, ...init };
    Comlink.expose(stubApi(st), ch.port2);
    const w = new FakeWorker(ch.port1, st);
    workers.push(w);
    return w as unknown as Worker;
  };
  const bridge = new WorkerBridge(spawn);
  bridge.timings = { cancelGrace: 100, pingEvery: 50, pingTimeout: 200 };
  return bridge;
}

afterEach(() => {
  for (const w of workers.splice(0)) if (!w.terminated) w.terminate();
});

const signal = () => new AbortController().signal;

describe('WorkerBridge', () => {
  it('returns results and forwards progress through a proxy', async () => {
    const bridge = makeBridge();
    const seen: number[] = [];
    const fit = await bridge.fit(signal(), DEFAULT_SETTINGS, (p) => seen.push(p.step));
    expect(fit.schema).toBe('llm-nrm-fit/1');
    expect(seen).toEqual([1]);
  });

  it('maps an abort to cancel(id) in the worker and rejects with AbortError', async () => {
    const bridge = makeBridge();
    const ac = new AbortController();
    const p = bridge.fit(ac.signal, DEFAULT_SETTINGS, () => ac.abort());
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => workers[0].state.cancelled.length).toBe(1);
    // The worker is free again.
    await expect(bridge.fit(signal(), DEFAULT_SETTINGS, () => {})).resolves.toBeTruthy();
  });

  it('rejects a queued call at once when it is aborted before its turn', async () => {
    const bridge = makeBridge();
    const first = bridge.fit(signal(), DEFAULT_SETTINGS, () => {});
    const ac = new AbortController();
    const second = bridge.fit(ac.signal, DEFAULT_SETTINGS, () => {});
    ac.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    await expect(first).resolves.toBeTruthy();
    expect(workers[0].state.cancelled).toEqual([]);
  });

  it('after a crash, rejects pending calls, restarts and re-sends the data', async () => {
    const bridge = makeBridge();
    const restarts: string[] = [];
    bridge.onRestart = (r) => restarts.push(r);
    await bridge.load(signal(), [], {}, () => {});
    const pending = bridge.fit(signal(), DEFAULT_SETTINGS, () => {});
    await new Promise((r) => setTimeout(r, 5));
    workers[0].dispatchEvent(Object.assign(new Event('error'), { message: 'boom' }));
    await expect(pending).rejects.toBeInstanceOf(WorkerCrashedError);
    expect(restarts[0]).toMatch(/boom/);
    expect(workers[0].terminated).toBe(true);
    await expect(bridge.fit(signal(), DEFAULT_SETTINGS, () => {})).resolves.toBeTruthy();
    expect(workers[1].state.datasets).toHaveLength(1);
    expect((workers[1].state.datasets[0] as { llmIds: string[] }).llmIds).toEqual(
      tinyDataset().llmIds,
    );
  });

  it('replaces a worker that ignores a cancel', async () => {
    const bridge = makeBridge({ stuck: true });
    const ac = new AbortController();
    const p = bridge.fit(ac.signal, DEFAULT_SETTINGS, () => ac.abort());
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => workers.length).toBe(2);
    expect(workers[0].terminated).toBe(true);
  });

  it('replaces a worker that stops answering pings', async () => {
    const bridge = makeBridge({ stuck: true, deaf: true });
    const p = bridge.fit(signal(), DEFAULT_SETTINGS, () => {});
    await expect(p).rejects.toThrow(/stopped answering/);
    expect(workers[0].terminated).toBe(true);
  });
});
