/**
 * Adaptive testing (CAT) against an item bank: each next item is the one with
 * the most Fisher information at the LLM's current θ under the full response
 * model (its current s, δ, ρ and the gate), and θ, SE and the terms are
 * re-estimated after every answer.
 */
import { OPTION_LABELS, type Dataset } from '../data/types';
import type { ItemBank } from './bank';
import { estimateLlm, responseTarget, type Response } from './estimate';
import {
  neutralTerms,
  responseInfo,
  responseModel,
  type LlmTerms,
  type ResponseModel,
} from './model';

/** The state after one answered item. */
export interface CatStep {
  item: string;
  theta: number;
  se: number;
}

export interface CatOptions {
  /** Stop after this many items (default: the whole pool). */
  maxItems?: number;
  /** Stop once SE(θ) falls below this. */
  se?: number;
  /** Known s, δ, ρ of the LLM: used for selection and held fixed (only θ is estimated). */
  llmTerms?: LlmTerms;
  /** Item ids the session may give (default: every bank item). */
  pool?: Iterable<string>;
  signal?: AbortSignal;
}

/** Why a session stopped. */
export type CatStop = 'se' | 'max-items' | 'pool-exhausted';

export interface CatSession {
  /** The most informative item not yet given, or null when the session has stopped. */
  next(): string | null;
  /** Record the LLM's option probabilities on an item and re-estimate. */
  answer(itemId: string, probs: ArrayLike<number>): Promise<CatStep>;
  readonly theta: number;
  readonly se: number;
  readonly terms: LlmTerms;
  readonly trace: readonly CatStep[];
  /** Null while the session can continue. */
  readonly stopped: CatStop | null;
}

/**
 * An interactive adaptive test: call `next()` for an item id, administer it,
 * pass the LLM's option probabilities to `answer()`, repeat until `next()`
 * returns null. θ starts at 0 with SE 1 (the prior).
 */
export function createCatSession(
  bank: ItemBank | ResponseModel,
  opts: CatOptions = {},
): CatSession {
  const m = 'schema' in bank ? responseModel(bank) : bank;
  // available[i] = 1 while bank item i may still be given.
  const available = new Uint8Array(m.items.length);
  let left = 0;
  for (const id of opts.pool ?? m.items.map((it) => it.id)) {
    const i = m.index.get(id);
    if (i === undefined) throw new Error(`Item ${id} is not in the bank.`);
    if (!available[i]) left++;
    available[i] = 1;
  }
  const maxItems = opts.maxItems ?? Infinity;
  const fixTerms = opts.llmTerms !== undefined;
  let est = { theta: 0, se: 1, terms: opts.llmTerms ?? neutralTerms(m.Kmax) };
  const responses: Response[] = [];
  const trace: CatStep[] = [];
  const scratch = { z: new Float64Array(m.Kmax), dz: new Float64Array(m.Kmax) };
  const stopped = (): CatStop | null => {
    if (opts.se !== undefined && trace.length > 0 && est.se < opts.se) return 'se';
    if (left === 0) return 'pool-exhausted';
    return trace.length >= maxItems ? 'max-items' : null;
  };
  return {
    next() {
      if (stopped()) return null;
      let best = -1;
      let bestInfo = -Infinity;
      // Bank order with a strict > keeps ties deterministic.
      for (let i = 0; i < available.length; i++) {
        if (!available[i]) continue;
        const info = responseInfo(m, m.items[i], est.theta, est.terms, scratch);
        if (info > bestInfo || best < 0) {
          bestInfo = info;
          best = i;
        }
      }
      return best < 0 ? null : m.items[best].id;
    },
    async answer(itemId, probs) {
      const i = m.index.get(itemId);
      if (i === undefined || !available[i])
        throw new Error(`Item ${itemId} is not in this session's pool (or was already answered).`);
      const y = responseTarget(m, m.items[i], probs);
      available[i] = 0;
      left--;
      responses.push({ item: i, y });
      est = await estimateLlm(m, responses, est, { fixTerms, signal: opts.signal });
      const step = { item: itemId, theta: est.theta, se: est.se };
      trace.push(step);
      return step;
    },
    get theta() {
      return est.theta;
    },
    get se() {
      return est.se;
    },
    get terms() {
      return est.terms;
    },
    get trace() {
      return trace;
    },
    get stopped() {
      return stopped();
    },
  };
}

export interface CatResult {
  llm: string;
  theta: number;
  se: number;
  /** Items in the order given. */
  items: string[];
  trace: CatStep[];
  stopped: CatStop;
}

/**
 * A CAT run as a simulation: LLM `llm` of `data` answers whatever the session
 * asks, from its recorded responses. The pool is the bank items the LLM has an
 * observed response to; an item whose key or option count disagrees with the
 * bank is an error.
 */
export async function runCat(
  bank: ItemBank | ResponseModel,
  data: Dataset,
  llm: number,
  opts: Omit<CatOptions, 'pool'> = {},
): Promise<CatResult> {
  const m = 'schema' in bank ? responseModel(bank) : bank;
  const col = new Map<string, number>();
  data.itemIds.forEach((id, i) => {
    const b = m.index.get(id);
    if (b === undefined || !data.observed[llm * data.I + i]) return;
    const it = m.items[b];
    if (it.K !== data.nOptions[i] || it.key !== data.key[i])
      throw new Error(
        `Item ${id}: the data has key ${OPTION_LABELS[data.key[i]]} of ${data.nOptions[i]} options, the bank key ${OPTION_LABELS[it.key]} of ${it.K}.`,
      );
    col.set(id, i);
  });
  const session = createCatSession(m, { ...opts, pool: col.keys() });
  for (let id = session.next(); id !== null; id = session.next()) {
    const off = (llm * data.I + col.get(id)!) * data.Kmax;
    await session.answer(id, data.obs.subarray(off, off + data.Kmax));
  }
  return {
    llm: data.llmIds[llm],
    theta: session.theta,
    se: session.se,
    items: session.trace.map((s) => s.item),
    trace: [...session.trace],
    stopped: session.stopped ?? 'pool-exhausted',
  };
}
