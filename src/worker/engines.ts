import type { EngineChoice } from '../core/engines/types';
import { FUSED_HANDLE, type EngineHandle } from '../core/fit/fit';
import type { EngineResolution } from './protocol';

// TEMPORARY until core/engines/select.ts lands: everything runs on the fused engine.
export async function resolveChoice(choice: EngineChoice): Promise<EngineResolution> {
  return { name: 'fused', reason: `${choice}: fused CPU engine (engine selection not yet available)` };
}

export async function pickEngine(choice: EngineChoice): Promise<EngineHandle> {
  const r = await resolveChoice(choice);
  return { ...FUSED_HANDLE, reason: r.reason };
}
