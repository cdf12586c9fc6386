/**
 * A fit's checkpoints as they cross the worker boundary: the worker takes them
 * (worker/checkpoint.ts), the client stores them and hands one back to resume.
 */
import type { FitSettings } from '../core/fit/types';

/** A fit's saved iterate: what the client stores, and `start` of a resume. */
export interface FitCheckpointRecord {
  /** The free parameter vector (the optimiser's, not the natural parameters). */
  x: Float64Array;
  step: number;
  objective: number;
  settings: FitSettings;
}

/** Where a resumed fit starts: a checkpoint's vector and the step it was taken at. */
export interface ResumeFrom {
  x: Float64Array;
  step: number;
}
