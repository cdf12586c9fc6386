import { describe, expect, it } from 'vitest';
import { createFusedEngine } from '../core/engines/fused';
import type { EngineName } from '../core/engines/types';
import { FUSED_HANDLE, type EngineHandle } from '../core/fit/fit';
import { DEFAULT_SETTINGS, type FitSettings } from '../core/fit/types';
import { simulateNominal } from '../core/model/simulate';
import { freeVectorFromFit } from '../core/fit/warmstart';
import { cadence, fallbackChain, fitWithRecovery, isDeviceLost } from './checkpoint';
import { armDeviceLoss, takeDeviceLoss } from './faults';
import type { FitCheckpointRecord } from '../boundary/checkpoint';

const ds = simulateNominal({ J: 6, I: 30, seed: 3, K: 4 }).data;
const settings: FitSettings = { ...DEFAULT_SETTINGS, optimizer: 'adam', steps: 40 };
/** Every 5 steps, no time floor: deterministic in tests. */
const EVERY_5 = { steps: 5, ms: 1e9, minMs: 0 };

function deviceLost(): Error {
  const e = new Error('WebGPU device lost (destroyed)');
  e.name = 'DeviceLostError';
  return e;
}

/** The fused engine under a GPU engine's name, losing its device on evaluation `lostAt`. */
function gpuHandle(lostAt: number, name: EngineName = 'webgpu-fused'): EngineHandle {
  return {
    name,
    reason: 'test GPU',
    async create(problem) {
      const engine = createFusedEngine(problem);
      let n = 0;
      return {
        name,
        evaluate: (nat, grad) =>
          ++n >= lostAt ? Promise.reject(deviceLost()) : engine.evaluate(nat, grad),
        dispose: () => engine.dispose(),
      };
    },
  };
}

/** fitWithRecovery on `ds` with `engine`, a fresh signal and no progress listener (unless `more` overrides). */
const recover = (engine: EngineHandle, more: Partial<Parameters<typeof fitWithRecovery>[2]> = {}) =>
  fitWithRecovery(ds, settings, {
    signal: new AbortController().signal,
    engine,
    onProgress: () => undefined,
    ...more,
  });

const picked: EngineName[] = [];
const pickEngine = async (name: EngineName) => {
  picked.push(name);
  return { ...FUSED_HANDLE, name: name === 'fused' ? name : 'fused' };
};
const noGpu = async () => ({ inNode: false, webgpuAdapter: null, webgl2: null });

describe('cadence', () => {
  it('checkpoints every N steps or T ms, whichever first, never faster than the floor', () => {
    let t = 0;
    const due = cadence({ steps: 100, ms: 5000, minMs: 1000 }, () => t);
    t = 500;
    expect(due(150)).toBe(false); // under the 1 s floor
    t = 1000;
    expect(due(150)).toBe(true); // 100 steps reached
    t = 2500;
    expect(due(200)).toBe(false); // 50 steps, 1.5 s
    t = 6000;
    expect(due(201)).toBe(true); // 5 s reached
  });
});

describe('device loss', () => {
  it('is recognised by name or message', () => {
    expect(isDeviceLost(deviceLost())).toBe(true);
    expect(isDeviceLost(new Error('GPU device was lost'))).toBe(true);
    expect(isDeviceLost(new Error('Adam: the objective became NaN'))).toBe(false);
    expect(isDeviceLost('device lost')).toBe(false);
  });

  it('falls back to tfjs-webgl only on a hardware WebGL2 renderer, then fused', () => {
    const hw = { inNode: false, webgl2: { renderer: 'ANGLE (NVIDIA GeForce RTX 4090)' } };
    const sw = { inNode: false, webgl2: { renderer: 'ANGLE (Google, SwiftShader Device)' } };
    expect(fallbackChain('webgpu-fused', hw)).toEqual(['tfjs-webgl', 'fused']);
    expect(fallbackChain('tfjs-webgpu', hw)).toEqual(['tfjs-webgl', 'fused']);
    expect(fallbackChain('webgpu-fused', sw)).toEqual(['fused']);
    expect(fallbackChain('tfjs-webgl', hw)).toEqual(['fused']);
  });
});

describe('fitWithRecovery', () => {
  it('sends checkpoints with a copy of x and the settings', async () => {
    const got: FitCheckpointRecord[] = [];
    const fit = await recover(FUSED_HANDLE, {
      onCheckpoint: (c) => got.push(c),
      cadence: EVERY_5,
    });
    expect(got.map((c) => c.step)).toEqual([5, 10, 15, 20, 25, 30, 35, 40]);
    expect(got[0].settings).toEqual(settings);
    expect(got[0].x).not.toBe(got[1].x);
    expect(got[0].x.some((v, q) => v !== got[1].x[q])).toBe(true);
    expect(fit.notes.join(' ')).not.toMatch(/lost|Resumed/);
  });

  it('a resumed fit starts at the checkpoint, not at the documented start', async () => {
    const got: FitCheckpointRecord[] = [];
    const first = await recover(FUSED_HANDLE, {
      onCheckpoint: (c) => got.push(c),
      cadence: EVERY_5,
    });
    const cp = got[3];
    const resumed = await recover(FUSED_HANDLE, {
      resume: { x: cp.x, step: cp.step },
    });
    expect(resumed.notes).toContain('Resumed from a checkpoint at step 20 (warm start).');
    // Step 1's objective is f at the starting vector: the checkpoint's, within
    // one Adam step (the checkpoint's objective is f just before its step).
    const start = first.trace[0].objective;
    expect(Math.abs(resumed.trace[0].objective - cp.objective) / cp.objective).toBeLessThan(0.02);
    expect(resumed.trace[0].objective).toBeLessThan(start - 0.5 * (start - cp.objective));
    // The fit records the gate form and the item priors it used (the default
    // mode's margin gate; fixed priors on these soft cells).
    expect(resumed.settings).toEqual({ ...settings, gate: 'margin', itemPriors: 'fixed' });
  });

  it('a resumed fit counts its steps on from the checkpoint and runs what was left of the cap', async () => {
    const got: FitCheckpointRecord[] = [];
    await recover(FUSED_HANDLE, { onCheckpoint: (c) => got.push(c), cadence: EVERY_5 });
    const cp = got[3];
    const steps: number[] = [];
    const cps: number[] = [];
    const resumed = await recover(FUSED_HANDLE, {
      resume: { x: cp.x, step: cp.step },
      onProgress: (p) => steps.push(p.step),
      onCheckpoint: (c) => cps.push(c.step),
      cadence: EVERY_5,
    });
    expect(Math.min(...steps)).toBeGreaterThan(cp.step);
    expect(Math.max(...steps)).toBe(settings.steps);
    expect(cps).toEqual([25, 30, 35, 40]);
    expect(resumed.steps).toBe(settings.steps);
    expect(resumed.trace[0].step).toBe(cp.step + 1);
    expect(resumed.settings.steps).toBe(settings.steps);
  });

  it("a resume with no iterate (a 'start' record) fits from the start", async () => {
    const plain = await recover(FUSED_HANDLE);
    const again = await recover(FUSED_HANDLE, { resume: { x: new Float64Array(0), step: 0 } });
    expect(again.objective).toBe(plain.objective);
    expect(again.notes.join(' ')).not.toMatch(/Resumed/);
  });

  it('continuing a capped fit with L-BFGS reaches convergence from its end point', async () => {
    const capped = { ...DEFAULT_SETTINGS, steps: 5 };
    const first = await fitWithRecovery(ds, capped, {
      signal: new AbortController().signal,
      engine: FUSED_HANDLE,
      onProgress: () => undefined,
    });
    expect(first.converged).toBe(false);
    const cps: FitCheckpointRecord[] = [];
    const next = await fitWithRecovery(
      ds,
      { ...first.settings, steps: first.steps + 1_000_000 },
      {
        signal: new AbortController().signal,
        engine: FUSED_HANDLE,
        onProgress: () => undefined,
        resume: {
          x: freeVectorFromFit(first, ds),
          step: first.steps,
          kind: 'continue',
          replaces: '#1',
        },
        onCheckpoint: (c) => cps.push(c),
        cadence: EVERY_5,
      },
    );
    expect(next.converged).toBe(true);
    expect(next.steps).toBeGreaterThan(first.steps);
    // What L-BFGS lowers is the optimised objective (fit.json's objective + penalty);
    // the paper's L alone may rise (it did, 221.199 -> 221.231, once the capped
    // fit's steps were spent partly on the λ ladder's rungs).
    expect(next.objective + next.penalty).toBeLessThan(first.objective + first.penalty);
    expect(next.notes).toContain(
      `Continued from its end point at step ${first.steps} (L-BFGS until converged).`,
    );
    // Its checkpoints name the fit it replaces, so a resume after a reload replaces it too.
    expect(cps.length).toBeGreaterThan(0);
    expect(cps.every((c) => c.replaces === '#1' && c.phase === 'fit')).toBe(true);
  });

  it('a lost WebGPU device continues on the next engine from the last checkpoint', async () => {
    picked.length = 0;
    const got: FitCheckpointRecord[] = [];
    const fit = await recover(gpuHandle(13), {
      onCheckpoint: (c) => got.push(c),
      cadence: EVERY_5,
      pickEngine,
      probe: noGpu,
    });
    const note = 'WebGPU device lost at step 12; continued on fused from the checkpoint at step 10';
    expect(picked).toEqual(['fused']);
    expect(fit.notes).toContain(`${note}.`);
    expect(fit.engine).toBe('fused');
    expect(fit.engineReason).toBe(note);
    // The fallback run starts at the step-10 iterate.
    const at10 = got.find((c) => c.step === 10)!;
    expect(Math.abs(fit.trace[0].objective - at10.objective) / at10.objective).toBeLessThan(0.02);
    expect(fit.steps).toBe(settings.steps);
  });

  it('before any checkpoint, the fallback starts from the start', async () => {
    const fit = await recover(gpuHandle(3, 'tfjs-webgpu'), {
      cadence: EVERY_5,
      pickEngine,
      probe: noGpu,
    });
    expect(fit.notes).toContain('WebGPU device lost at step 2; continued on fused from the start.');
  });

  it('the same error on a CPU engine, or a cancel, is not retried', async () => {
    const cpu = gpuHandle(3, 'tfjs-cpu');
    await expect(
      recover(cpu, {
        pickEngine,
        probe: noGpu,
      }),
    ).rejects.toThrow(/device lost/);
    const ac = new AbortController();
    ac.abort();
    await expect(
      recover(gpuHandle(1), {
        signal: ac.signal,
        pickEngine,
        probe: noGpu,
      }),
    ).rejects.toThrow();
  });

  it('the test hook loses a WebGPU device just after the first checkpoint', async () => {
    armDeviceLoss();
    const gpu = { ...FUSED_HANDLE, name: 'webgpu-fused' as const };
    const fit = await recover(gpu, {
      cadence: EVERY_5,
      pickEngine,
      probe: noGpu,
      faults: takeDeviceLoss,
    });
    expect(fit.notes).toContain(
      'WebGPU device lost at step 5; continued on fused from the checkpoint at step 5.',
    );
    // Armed once: the next fit runs through, with no fallback.
    const again = await recover(gpu, {
      cadence: EVERY_5,
      pickEngine,
      probe: noGpu,
      faults: takeDeviceLoss,
    });
    expect(again.notes.join(' ')).not.toMatch(/lost/);
    expect(again.engineReason).toBe(FUSED_HANDLE.reason);
  });
});
