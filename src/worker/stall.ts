/**
 * Test hook: hold the next fit at the start of its L-BFGS phase until it is
 * cancelled, so an e2e test can cancel "during L-BFGS" without depending on how
 * many steps an optimiser takes or how fast the machine is.
 */
import type { FitProgress } from '../core/fit/types';

let armed = false;

/** The next fit stops at the start of its final L-BFGS phase and waits for its cancel. */
export function armLbfgsStall(): void {
  armed = true;
}

/**
 * The fit's `beforeLbfgs` while the stall is armed (it disarms it): reports the
 * hold in the progress line, from the last progress `last()` gave, then resolves
 * only when `signal` aborts (the optimiser's next yield then throws AbortError).
 */
export function takeLbfgsStall(
  signal: AbortSignal,
  last: () => FitProgress | null,
  report: (p: FitProgress) => void,
): (() => Promise<void>) | undefined {
  if (!armed) return undefined;
  armed = false;
  return () => {
    const p = last();
    report({
      step: p?.step ?? 0,
      passes: p?.passes ?? 0,
      objective: p?.objective ?? NaN,
      elapsedMs: p?.elapsedMs ?? 0,
      maxSteps: p?.maxSteps ?? 0,
      phase: 'held at the start of L-BFGS (test hook)',
      optimiser: 'L-BFGS',
    });
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) =>
      signal.addEventListener('abort', () => resolve(), { once: true }),
    );
  };
}
