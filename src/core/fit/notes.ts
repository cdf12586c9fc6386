import type { Dataset } from '../data/types';
import { FLAG_DEFAULTS } from '../defaults';
import { saturatedOption } from '../model/cells';
import type { Mode } from '../model/params';

const MAX_LISTED = 10;

function listed(ids: string[]): string {
  const head = ids.slice(0, MAX_LISTED).join(', ');
  return ids.length > MAX_LISTED ? `${head} and ${ids.length - MAX_LISTED} more` : head;
}

/**
 * What the data cannot identify, in words, so the result says so instead of
 * presenting drifting numbers as estimates.
 */
export function identificationNotes(ds: Dataset, mode: Mode): string[] {
  const { J, I } = ds;
  const notes: string[] = [];
  const held =
    mode === 'default'
      ? 'held finite only by the weak N(0, 30²) item prior'
      : 'not identified (they drift with fit length)';
  const saturated: string[] = [];
  const sparseItems: string[] = [];
  for (let i = 0; i < I; i++) {
    let n = 0;
    for (let j = 0; j < J; j++) n += ds.observed[j * I + i];
    if (n < 2) sparseItems.push(ds.itemIds[i]);
    else if (saturatedOption(ds, i, FLAG_DEFAULTS.saturation)) saturated.push(ds.itemIds[i]);
  }
  if (saturated.length)
    notes.push(
      `${saturated.length} item(s) with no variance (every LLM puts > 95% on the same option): ${listed(saturated)}. Their option parameters are ${held}.`,
    );
  if (sparseItems.length)
    notes.push(
      `${sparseItems.length} item(s) observed for fewer than 2 LLMs: ${listed(sparseItems)}. Their parameters rest on the priors.`,
    );
  const sparseLlms: string[] = [];
  for (let j = 0; j < J; j++) {
    let n = 0;
    for (let i = 0; i < I; i++) n += ds.observed[j * I + i];
    if (n < 3) sparseLlms.push(ds.llmIds[j]);
  }
  if (sparseLlms.length)
    notes.push(
      `${sparseLlms.length} LLM(s) observed on fewer than 3 items: ${listed(sparseLlms)}. Their θ is mostly prior.`,
    );
  return notes;
}
