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
  /** Calls about kept fits, in order. */
  calls: string[];
}

function stubApi(st: StubState) {
  const waiting = new Map<number, () => void>();
  let fits = 0;
  return {
    async fit(
      _s: unknown,
      onProgress: (p: FitProgress) => void,
      id: number,
    ): Promise<{ fit: FitJson; ref: number }> {
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
      return { fit: tinyFit(), ref: 100 + ++fits };
    },
    // Kept fits: refs of even calls are "dropped", so both paths are exercised.
    async deriveKept(ref: number) {
      st.calls.push(`deriveKept ${ref}`);
      return ref % 2 ? { derived: 'kept', flags: [] } : null;
    },
    async derive(fit: FitJson) {
      st.calls.push(`derive ${fit.schema}`);
      return { derived: 'sent', flags: [] };
    },
    async storeKept(ref: number, entry: { label: string }) {
      st.calls.push(`storeKept ${ref} ${entry.label}`);
      return ref * 10;
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
    const st: StubState = {
      cancelled: [],
      datasets: [],
      stuck: false,
      deaf: false,
      calls: [],
      ...init,
    };
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
  it('names a fit the worker made instead of sending it back, and sends one it did not', async () => {
    const bridge = makeBridge();
    const made = await bridge.fit(signal(), DEFAULT_SETTINGS, () => {}); // ref 101
    expect(await bridge.derive(signal(), made)).toEqual({ derived: 'kept', flags: [] });
    expect(await bridge.storeFit(signal(), { label: 'L', origin: 'fit', fit: made })).toBe(1010);
    const dropped = await bridge.fit(signal(), DEFAULT_SETTINGS, () => {}); // ref 102: dropped
    expect(await bridge.derive(signal(), dropped)).toEqual({ derived: 'sent', flags: [] });
    const imported = tinyFit();
    expect(await bridge.derive(signal(), imported)).toEqual({ derived: 'sent', flags: [] });
    expect(await bridge.storeFit(signal(), { label: 'I', origin: 'import', fit: imported })).toBe(
      null,
    );
    expect(workers[0].state.calls).toEqual([
      'deriveKept 101',
      'storeKept 101 L',
      'deriveKept 102',
      'derive llm-nrm-fit/1',
      'derive llm-nrm-fit/1',
    ]);
  });

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
