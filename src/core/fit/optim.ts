/**
 * Optimisers over a flat float64 vector: full-batch Adam (the paper's) and
 * L-BFGS, one file each in optim/ with their line search, search direction and
 * vector kernels. The objective is async because some engines read results back
 * from a GPU; both optimisers yield to the event loop now and then, each run on
 * its own clock, so a worker can receive a cancel message mid-fit.
 */
export { adam, type AdamOptions } from './optim/adam';
export { lbfgs, type LbfgsOptions } from './optim/lbfgs';
export { APPROX_WOLFE_REL } from './optim/lineSearch';
export {
  abortError,
  gradNorms,
  type Objective,
  type OptimOptions,
  type OptimResult,
  type OptimStep,
  type StopReason,
} from './optim/types';
