/** Errors the bridge rejects with, told apart by name. */

/** The worker stopped (crashed, hung, ran out of memory) while a call was in flight. */
export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

/** An Error named 'AbortError', as fetch and fitDataset reject with. */
export class AbortError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AbortError';
  }
}

export const abortError = (message = 'Cancelled.'): Error => new AbortError(message);
export const isAbort = (e: unknown): boolean => e instanceof Error && e.name === 'AbortError';
