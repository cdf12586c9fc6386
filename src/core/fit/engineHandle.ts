/**
 * How a fit gets an engine for a problem (the fused CPU engine by default; the
 * worker and the CLI pass others), in a leaf file so that fit.ts and the λ
 * search (strength.ts) both name it without importing each other.
 */
import { createFusedEngine } from '../engines/fused';
import type { Engine, EngineName, Problem } from '../engines/types';

/** How to get an engine for a problem, with the reason it was chosen. */
export interface EngineHandle {
  name: EngineName;
  reason: string;
  create(problem: Problem): Promise<Engine>;
}

export const FUSED_HANDLE: EngineHandle = {
  name: 'fused',
  reason: 'fused CPU engine (default)',
  create: async (problem) => createFusedEngine(problem),
};
