/**
 * A fit's checkpoints: the worker takes them (worker/checkpoint.ts) and stores
 * them (worker/checkpointStore.ts), the client hears each one's step and hands
 * a stored one back to resume.
 */
import type { EngineName } from '../core/engines/types';
import type { FitSettings } from '../core/fit/types';

/** A fit's saved iterate: what the client stores, and `start` of a resume. */
export interface FitCheckpointRecord {
  /** The free parameter vector (the optimiser's, not the natural parameters). */
  x: Float64Array;
  step: number;
  objective: number;
  settings: FitSettings;
  /**
   * 'start': the fit has taken no checkpoint yet (it is choosing its prior
   * strength, or warming up): `x` is empty and a resume runs it again with the
   * same settings. 'fit' (or absent, in older records): `x` is the iterate at `step`.
   */
  phase?: CheckpointPhase;
  /** A "Continue fitting" run: the label of the fit it continues, which its result replaces. */
  replaces?: string;
}

export type CheckpointPhase = 'start' | 'fit';

/** A checkpoint the worker has stored (or failed to): what the client is told of it. */
export interface CheckpointSaved {
  step: number;
  objective: number;
  /** Why it could not be stored, when it could not. */
  error?: string;
  /** The record's phase ('start': no iterate yet, see FitCheckpointRecord.phase). */
  phase?: CheckpointPhase;
}

/** A fit whose GPU device was lost and that went on on another engine (worker/checkpoint.ts). */
export interface DeviceLoss {
  /** The step the fit had reached when the device was lost. */
  step: number;
  /** The engine it continued on. */
  engine: EngineName;
  /** The checkpoint step it continued from; null when it restarted (from its warm start or the beginning). */
  fromStep: number | null;
  /** The same in words, as the fit's notes say it. */
  note: string;
}

/**
 * Where a resumed fit starts: a checkpoint's vector and the step it was taken
 * at. The resumed fit counts its steps on from `step`, and its step cap is the
 * interrupted fit's (it runs what was left of it).
 */
export interface ResumeFrom {
  x: Float64Array;
  step: number;
  /** 'continue': "Continue fitting" a finished fit from its own end point (not a checkpoint). */
  kind?: 'checkpoint' | 'continue';
  /** A continuation's fit (by label): stored in its checkpoints, so a resume replaces it too. */
  replaces?: string;
}
