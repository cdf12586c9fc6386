import { binaryCE } from './fusedBinary';
import { nominalCE } from './fusedNominal';
import type { Engine, Problem } from './types';

/**
 * The fused CPU engine: plain TypeScript over typed arrays, analytic gradients,
 * float64 accumulation. The default everywhere without a real GPU.
 */
export function createFusedEngine(problem: Problem): Engine {
  return {
    name: 'fused',
    async evaluate(nat, grad) {
      return evaluateFused(problem, nat, grad);
    },
    dispose() {},
  };
}

/** Synchronous form, for tests and for callers that need no await. */
export function evaluateFused(
  problem: Problem,
  nat: Float64Array,
  grad: Float64Array | null,
): number {
  return problem.kind === 'nominal'
    ? nominalCE(nat, grad, problem.layout, problem.flags, problem.cells, problem.channel)
    : binaryCE(nat, grad, problem.layout, problem.model, problem.cells);
}
