/**
 * Test hooks: hold the next fit at the start of its L-BFGS phase, in its
 * prior-strength search, or after its first checkpoint, until it is cancelled (or the page reloads), so an
 * e2e test can act "during L-BFGS" or "during the search" without depending
 * on how many steps an optimiser takes or how fast the machine is.
 */
import type { Engine } from '../core/engines/types';
import type { EngineHandle } from '../core/fit/fit';
import type { FitProgress } from '../core/fit/types';
import type { Cadence } from './checkpoint';

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

/** The progress line of a hold that has no step of its own to report. */
function heldAt(phase: string): FitProgress {
  return { step: 0, passes: 0, objective: NaN, elapsedMs: 0, maxSteps: 0, phase };
}

let searchArmed = false;

/** The next fit stops as its prior-strength search starts and waits for its cancel (or a reload). */
export function armSearchStall(): void {
  searchArmed = true;
}

/**
 * While the search stall is armed (it disarms it): wraps the fit's engine
 * handle so that the first engine created for a problem of fewer than
 * `cells` cells (the data set's observed cells), that is, for one of the
 * prior-strength search's folds, is held until `signal` aborts, after
 * `report` says so in the progress line. A fit that runs no search (Adam,
 * paper mode) poses only the whole data and is not held.
 */
export function takeSearchStall(
  signal: AbortSignal,
  cells: number,
  report: (p: FitProgress) => void,
): ((handle: EngineHandle) => EngineHandle) | undefined {
  if (!searchArmed) return undefined;
  searchArmed = false;
  let held = false;
  return (handle) => ({
    ...handle,
    async create(problem) {
      if (!held && problem.cells.n < cells) {
        held = true;
        report(heldAt('choosing the prior strength: held (test hook)'));
        if (!signal.aborted)
          await new Promise<void>((resolve) =>
            signal.addEventListener('abort', () => resolve(), { once: true }),
          );
      }
      return handle.create(problem);
    },
  });
}

let checkpointArmed = false;

/** The next fit takes a checkpoint at its first step, then holds until it is cancelled. */
export function armCheckpointStall(): void {
  checkpointArmed = true;
}

/** Checkpoint at every step (the held fit's first checkpoint must not wait on the clock). */
const EVERY_STEP: Cadence = { steps: 1, ms: 0, minMs: 0 };

/**
 * While the checkpoint stall is armed (it disarms it): the cadence that makes
 * the fit's first step a checkpoint, and a `faults` wrapper whose engine, once
 * `checkpointed()`, says so in the progress line and holds its next pass until
 * `signal` aborts (then rejects with an AbortError, as a cancelled pass does).
 * So a test can cancel a fit, a continuation among them, after a checkpoint
 * of its own, however fast the machine.
 */
export function takeCheckpointStall(
  signal: AbortSignal,
  report: (p: FitProgress) => void,
):
  | {
      cadence: Cadence;
      faults: (handle: EngineHandle, checkpointed: () => boolean) => EngineHandle;
    }
  | undefined {
  if (!checkpointArmed) return undefined;
  checkpointArmed = false;
  const hold = () =>
    new Promise<never>((_, reject) => {
      const fail = () => reject(new DOMException('The fit was cancelled.', 'AbortError'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
  return {
    cadence: EVERY_STEP,
    faults: (handle, checkpointed) => ({
      ...handle,
      async create(problem) {
        const engine = await handle.create(problem);
        let told = false;
        const held: Engine = {
          name: engine.name,
          evaluate(nat, grad) {
            if (!checkpointed()) return engine.evaluate(nat, grad);
            if (!told) {
              told = true;
              report(heldAt('held after a checkpoint (test hook)'));
            }
            return hold();
          },
          dispose: () => engine.dispose(),
        };
        return held;
      },
    }),
  };
}
