/**
 * Long fits in the worker: periodic checkpoints of the free vector (so a fit
 * survives a reload or a crash), warm-started resumes, and falling back to the
 * next engine when a WebGPU device is lost mid-fit.
 */
import type { Dataset } from '../core/data/types';
import { probeEnvironment, resolveEngine, type EngineEnvironment } from '../core/engines/select';
import type { EngineName } from '../core/engines/types';
import { fitDatasetFull, type EngineHandle, type FitCheckpoint } from '../core/fit/fit';
import type { FitJson, FitProgress, FitSettings } from '../core/fit/types';
import type { DeviceLoss, FitCheckpointRecord, ResumeFrom } from '../boundary/checkpoint';
import { pickEngine } from './engines';

/** Checkpoint every `steps` steps or `ms` milliseconds, whichever comes first, but at most every `minMs`. */
export interface Cadence {
  steps: number;
  ms: number;
  minMs: number;
}

export const CHECKPOINT_CADENCE: Cadence = { steps: 100, ms: 5000, minMs: 1000 };

/**
 * Returns a filter over step callbacks that says which steps become checkpoints.
 * The floor keeps a fast fit of a big problem from copying its vector many
 * times a second; the 5 s ceiling bounds the work lost when steps are slow.
 */
export function cadence(c: Cadence = CHECKPOINT_CADENCE, now: () => number = Date.now) {
  let lastStep = 0;
  let lastTime = now();
  return (step: number): boolean => {
    const t = now();
    if (t - lastTime < c.minMs) return false;
    if (step - lastStep < c.steps && t - lastTime < c.ms) return false;
    lastStep = step;
    lastTime = t;
    return true;
  };
}

/** A lost GPU device, as the WebGPU engine (DeviceLostError) or tfjs reports it. */
export function isDeviceLost(e: unknown): boolean {
  return (
    e instanceof Error && (e.name === 'DeviceLostError' || /device (was )?lost/i.test(e.message))
  );
}

export const GPU_ENGINES: readonly EngineName[] = ['webgpu-fused', 'tfjs-webgpu'];

/**
 * Engines to try after `lost` lost its device, in order: tfjs-webgl (only on a
 * hardware WebGL2 renderer, by the same test as `auto`; a software one is ~700×
 * slower than the CPU loop), then the fused CPU engine.
 */
export function fallbackChain(lost: EngineName, env: EngineEnvironment): EngineName[] {
  const chain: EngineName[] = [];
  const glOk = resolveEngine('auto', { ...env, webgpuAdapter: null }).name === 'tfjs-webgl';
  if (GPU_ENGINES.includes(lost) && glOk) chain.push('tfjs-webgl');
  if (lost !== 'fused') chain.push('fused');
  return chain;
}

export interface RecoveringFitOptions {
  signal: AbortSignal;
  engine: EngineHandle;
  onProgress: (p: FitProgress) => void;
  /** Told of each checkpoint; `x` is a fresh copy the callee may keep or transfer. */
  onCheckpoint?: (c: FitCheckpointRecord) => void;
  /** Told when the GPU device is lost and the fit goes on on another engine. */
  onDeviceLoss?: (d: DeviceLoss) => void;
  resume?: ResumeFrom;
  /** The handle for a fallback engine by name (tests inject their own). */
  pickEngine?: (name: EngineName) => Promise<EngineHandle>;
  /** What the fallback chain is decided on (probed only if a device is lost). */
  probe?: () => Promise<EngineEnvironment>;
  cadence?: Cadence;
  /** Awaited as the fit's L-BFGS phase starts (FitOptions.beforeLbfgs; a test hook). */
  beforeLbfgs?: () => Promise<void>;
  /**
   * Test builds only: the handle each attempt runs on, given its own and
   * whether a checkpoint has been taken (faults.ts's simulated device loss).
   */
  faults?: (handle: EngineHandle, checkpointed: () => boolean) => EngineHandle;
}

/**
 * Fits with checkpoints; if the engine loses its GPU device, fits again on the
 * next engine from the last checkpoint (or from the start if none was taken)
 * and says so in the fit's notes and engine reason.
 *
 * A resumed fit (or one restarted from a checkpoint after a device loss)
 * counts its steps on from the checkpoint's: its progress, checkpoints, trace
 * and `steps` are the interrupted fit's count, and it runs what was left of
 * `settings.steps` (recorded as given). A resume with an empty vector (a
 * 'start' record: no iterate was saved yet) fits from the start.
 */
export async function fitWithRecovery(
  ds: Dataset,
  settings: FitSettings,
  o: RecoveringFitOptions,
): Promise<FitJson> {
  const notes: string[] = [];
  const resume = o.resume && o.resume.x.length > 0 ? o.resume : undefined;
  if (resume?.kind === 'continue')
    notes.push(`Continued from its end point at step ${resume.step} (L-BFGS until converged).`);
  else if (resume) notes.push(`Resumed from a checkpoint at step ${resume.step} (warm start).`);
  let start = resume?.x;
  // Steps already taken before this run's first step (the checkpoint's step).
  let base = resume?.step ?? 0;
  const total = settings.steps;
  let handle = o.engine;
  let chain: EngineName[] | null = null;
  for (;;) {
    // The step reached, and the last checkpoint taken, by this run (counted from the fit's start).
    const seen = { step: base, saved: null as FitCheckpointRecord | null };
    const due = cadence(o.cadence);
    const offset = base;
    const onCheckpoint = (c: FitCheckpoint) => {
      const step = c.step + offset;
      seen.step = step;
      if (!due(c.step)) return;
      const saved: FitCheckpointRecord = {
        x: Float64Array.from(c.x),
        step,
        objective: c.objective,
        // λ once the search has chosen it, so a resume skips the search.
        settings:
          c.priorStrength === undefined
            ? settings
            : { ...settings, priorStrength: c.priorStrength },
        phase: 'fit',
        ...(o.resume?.replaces !== undefined && { replaces: o.resume.replaces }),
      };
      seen.saved = saved;
      o.onCheckpoint?.({ ...saved, x: Float64Array.from(saved.x) });
    };
    // A phase's sub-fits (the prior-strength search) count their own steps.
    const onProgress = (p: FitProgress) =>
      o.onProgress(p.phase ? p : { ...p, step: p.step + offset, maxSteps: total });
    const run = o.faults ? o.faults(handle, () => seen.saved !== null) : handle;
    try {
      const { json } = await fitDatasetFull(
        ds,
        offset > 0 ? { ...settings, steps: Math.max(1, total - offset) } : settings,
        {
          signal: o.signal,
          engine: run,
          onProgress,
          onCheckpoint,
          start,
          beforeLbfgs: o.beforeLbfgs,
        },
      );
      json.notes.push(...notes);
      if (offset > 0) {
        json.settings = { ...json.settings, steps: total };
        json.steps += offset;
        json.trace = json.trace.map((t) => ({ ...t, step: t.step + offset }));
      }
      return json;
    } catch (e) {
      const onGpu = GPU_ENGINES.includes(handle.name) || chain !== null;
      if (!onGpu || !isDeviceLost(e) || o.signal.aborted) throw e;
      chain ??= fallbackChain(handle.name, await (o.probe ?? probeEnvironment)());
      const next = chain.shift();
      if (!next) throw e;
      const from = seen.saved;
      const note =
        `WebGPU device lost at step ${seen.step}; continued on ${next}` +
        (from
          ? ` from the checkpoint at step ${from.step}`
          : start
            ? ' from its warm start'
            : ' from the start');
      notes.push(`${note}.`);
      o.onDeviceLoss?.({
        step: seen.step,
        engine: next,
        fromStep: from?.step ?? null,
        note: `${note}.`,
      });
      if (from) {
        start = from.x;
        base = from.step;
      }
      const h = await (o.pickEngine ?? pickEngine)(next);
      handle = { ...h, reason: note };
    }
  }
}
