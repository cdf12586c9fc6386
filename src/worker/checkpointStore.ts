/**
 * A running fit's checkpoints, written to the session store by the worker.
 * IndexedDB clones what it stores on the calling thread, and a value of
 * hundreds of kilobytes (the free vector at 189 × 5,000) is wrapped in a Blob
 * whose registration blocks that thread for ~20 ms: on the main thread that was
 * a long task every few seconds of a fit. The client hears only the step.
 */
import type { CheckpointSaved, FitCheckpointRecord } from '../boundary/checkpoint';
import { putCheckpoint } from '../boundary/persist/writes';

export { dropCheckpoint } from '../boundary/persist/writes';

export interface CheckpointWriterOptions {
  /** Stores one checkpoint (putCheckpoint; tests inject their own). */
  save?: (c: FitCheckpointRecord) => Promise<void>;
  /** Told of each checkpoint once stored, or why it could not be. */
  report: (s: CheckpointSaved) => void;
  /** Once aborted, no further checkpoint is stored (a cancelled fit keeps none). */
  signal?: AbortSignal;
}

/**
 * Writes a fit's checkpoints one at a time, newest wins: one that arrives while
 * another is being written waits, and is replaced by a newer one meanwhile (a
 * slow store never queues a backlog of vectors). `flush` resolves when nothing
 * is left to write, so the fit can end after its last checkpoint is stored.
 */
export class CheckpointWriter {
  private pending: FitCheckpointRecord | null = null;
  private writing: Promise<void> | null = null;
  private readonly save: (c: FitCheckpointRecord) => Promise<void>;

  constructor(private readonly o: CheckpointWriterOptions) {
    this.save = o.save ?? ((c) => putCheckpoint(c));
  }

  /** Stores `c` after the write in progress, if any (a newer call replaces it). */
  push(c: FitCheckpointRecord): void {
    if (this.o.signal?.aborted) return;
    this.pending = c;
    this.writing ??= this.drain();
  }

  /** Resolves once every checkpoint pushed so far is stored (or has failed). */
  flush(): Promise<void> {
    return this.writing ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending) {
        const c = this.pending;
        this.pending = null;
        if (this.o.signal?.aborted) break;
        try {
          await this.save(c);
          this.o.report({ step: c.step, objective: c.objective, phase: c.phase });
        } catch (e) {
          this.o.report({ step: c.step, objective: c.objective, phase: c.phase, error: String(e) });
        }
      }
    } finally {
      this.pending = null;
      this.writing = null;
    }
  }
}
