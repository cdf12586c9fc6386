/**
 * The worker's side of the Evaluate tab: runs one of the paper's evaluations
 * (src/core/eval, src/core/bank/compress) on the worker's data set, with
 * throttled progress and cancellation. No DOM here.
 */
import { compressionCurve } from '../core/bank/compress';
import type { Dataset } from '../core/data/types';
import { calibrationCurve } from '../core/eval/calibrate';
import { crossValidate } from '../core/eval/cv';
import { externalValidity } from '../core/eval/external';
import { infoByBenchmark } from '../core/eval/info';
import { wrongOnly } from '../core/eval/wrong';
import { abortError } from '../core/fit/optim';
import type { EngineChoice } from '../core/engines/types';
import type { EngineHandle } from '../core/fit/fit';
import type { FitProgress } from '../core/fit/types';
import { pickEngine } from './engines';
import type {
  EvalFitSettings,
  EvalProgressReport,
  EvalReply,
  EvalRequest,
} from '../boundary/evaluateProtocol';
import { throttle } from '../boundary/throttle';

/** Progress as the core runs report it (EvalProgress and CompressProgress both fit). */
interface CoreProgress {
  done: number;
  total: number;
  stage: string;
  fit?: FitProgress;
}

/**
 * Runs `req` on `ds` and returns its result with the seconds it took. Rejects
 * with an Error named 'AbortError' once `signal` aborts. `engineFor` turns the
 * engine choice into a handle (the worker's own picker; tests pass the fused one).
 */
export async function runEvaluation(
  ds: Dataset | null,
  req: EvalRequest,
  signal: AbortSignal,
  onProgress: (p: EvalProgressReport) => void,
  engineFor: (choice: EngineChoice) => Promise<EngineHandle> = pickEngine,
): Promise<EvalReply> {
  const t0 = performance.now();
  const report = throttle(onProgress);
  const progress = (p: CoreProgress) =>
    report.push({
      kind: req.kind,
      done: p.done,
      total: p.total,
      stage: p.stage,
      fit: p.fit && { step: p.fit.step, maxSteps: p.fit.maxSteps },
      elapsedMs: performance.now() - t0,
    });
  const data = (): Dataset => {
    if (!ds) throw new Error('No data is loaded: load a data set before evaluating.');
    return ds;
  };
  const fitting = async (fitSettings: EvalFitSettings) => ({
    fitSettings,
    engine: await engineFor(fitSettings.engine ?? 'auto'),
    signal,
    onProgress: progress,
  });
  const seconds = () => (performance.now() - t0) / 1000;
  const check = () => {
    if (signal.aborted) throw abortError();
  };

  switch (req.kind) {
    case 'cv': {
      const { models, folds, seed } = req;
      const result = await crossValidate(data(), {
        ...(await fitting(req.fitSettings)),
        models,
        folds,
        seed,
      });
      return { kind: 'cv', result, seconds: seconds() };
    }
    case 'wrong': {
      const { model, folds, seed, channels } = req;
      const result = await wrongOnly(data(), {
        ...(await fitting(req.fitSettings)),
        model,
        folds,
        seed,
        channels,
      });
      return { kind: 'wrong', result, seconds: seconds() };
    }
    case 'compress': {
      const { models, folds, seed, budgets, tauTarget } = req;
      const result = await compressionCurve(data(), {
        ...(await fitting(req.fitSettings)),
        models,
        folds,
        seed,
        budgets,
        tauTarget,
      });
      return { kind: 'compress', result, seconds: seconds() };
    }
    case 'calibrate': {
      const { models, sizes, draws, heldOut, seed, scoreChannel } = req;
      const result = await calibrationCurve(data(), {
        ...(await fitting(req.fitSettings)),
        models,
        sizes,
        draws,
        heldOut,
        seed,
        scoreChannel,
      });
      return { kind: 'calibrate', result, seconds: seconds() };
    }
    case 'external': {
      check();
      progress({ done: 0, total: 1, stage: `bootstrap (${req.bootstrap} resamples)` });
      const result = externalValidity(req.fits, req.scores, req.matches, {
        bootstrap: req.bootstrap,
        seed: req.seed,
      });
      return { kind: 'external', result, seconds: seconds() };
    }
    case 'info': {
      check();
      progress({ done: 0, total: 1, stage: 'item information over the fitted θ' });
      return { kind: 'info', result: infoByBenchmark(req.fit), seconds: seconds() };
    }
  }
}
