/** Errors the bridge rejects with (told apart by name), and how the banner shows any error. */
import type { UiError } from './state';

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

/** Turns anything thrown into what the error banner shows. */
export function toUiError(e: unknown, title: string): UiError {
  if (!(e instanceof Error)) return { title, message: String(e) };
  const { file, line, column } = e as Error & {
    file?: string;
    line?: number;
    column?: string | number;
  };
  // A DataError's message starts with its location, which the banner shows apart.
  const where = [
    file,
    line !== undefined && `line ${line}`,
    column !== undefined && `column ${column}`,
  ]
    .filter(Boolean)
    .join(', ');
  const message =
    where && e.message.startsWith(`${where}: `) ? e.message.slice(where.length + 2) : e.message;
  return { title, message, file, line, column };
}
