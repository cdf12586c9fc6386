import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../../core/data/types';
import type {
  EvalProgressReport,
  EvalReply,
  EvalRequest,
} from '../../../boundary/evaluateProtocol';
import { abortError } from '../../errors';
import { EvalRuns } from './runs';

const ds = { J: 1 } as Dataset;
const other = { J: 2 } as Dataset;
const info: EvalRequest = { kind: 'info', fit: {} as never };

/** A bridge whose calls the test settles by hand. */
function fakeBridge() {
  const calls: {
    signal: AbortSignal;
    progress: (p: EvalProgressReport) => void;
    resolve: (r: EvalReply) => void;
    reject: (e: Error) => void;
  }[] = [];
  const bridge = {
    evaluate: (signal: AbortSignal, _req: EvalRequest, progress: (p: EvalProgressReport) => void) =>
      new Promise<EvalReply>((resolve, reject) => {
        calls.push({ signal, progress, resolve, reject });
        signal.addEventListener('abort', () => reject(abortError()));
      }),
  };
  return { calls, runs: new EvalRuns(() => bridge) };
}

describe('EvalRuns', () => {
  it('goes idle → running (with progress) → done, per data set', async () => {
    const { calls, runs } = fakeBridge();
    let emitted = 0;
    runs.subscribe(() => emitted++);
    expect(runs.get(ds, 'info').status).toBe('idle');
    const done = runs.start(ds, info, 'from fit #1');
    expect(runs.get(ds, 'info')).toMatchObject({
      status: 'running',
      about: 'from fit #1',
      request: info,
    });
    expect(runs.running()).toBe('info');
    calls[0].progress({ kind: 'info', done: 0, total: 1, stage: 'x', elapsedMs: 1 });
    expect(runs.get(ds, 'info').progress?.stage).toBe('x');
    calls[0].resolve({ kind: 'info', result: [], seconds: 0.5 });
    await done;
    expect(runs.get(ds, 'info')).toMatchObject({ status: 'done', reply: { seconds: 0.5 } });
    expect(runs.running()).toBeNull();
    expect(runs.last(ds)).toBe('info');
    // Another data set has its own, idle, state; snapshots are stable between changes.
    expect(runs.get(other, 'info').status).toBe('idle');
    expect(runs.get(other, 'cv')).toBe(runs.get(other, 'cv'));
    expect(emitted).toBeGreaterThanOrEqual(3);
  });

  it('runs one evaluation at a time, and a cancel says why', async () => {
    const { runs } = fakeBridge();
    const first = runs.start(ds, info);
    await expect(runs.start(ds, { ...info })).rejects.toThrow('still running');
    runs.cancel('Cancelled: a load or fit started.');
    await first;
    expect(runs.get(ds, 'info')).toMatchObject({
      status: 'cancelled',
      stage: 'Cancelled: a load or fit started.',
    });
    expect(runs.running()).toBeNull();
  });

  it('records failures and settings errors as errors', async () => {
    const { calls, runs } = fakeBridge();
    const p = runs.start(ds, info);
    calls[0].reject(new Error('Only 2 matched LLMs'));
    await p;
    expect(runs.get(ds, 'info').error).toMatchObject({
      title: 'The evaluation failed',
      message: 'Only 2 matched LLMs',
    });
    runs.fail(ds, 'cv', { title: 'Check the settings', message: 'Folds must be…' });
    expect(runs.get(ds, 'cv').status).toBe('error');
    expect(runs.last(ds)).toBe('cv');
  });
});
