/**
 * The item flags' thresholds (flags.ts says how each was chosen): a leaf file,
 * so that core/defaults.ts can hold their values without importing the flags.
 */
export interface FlagOptions {
  /**
   * Mis-keyed: the log-likelihood gain (nats) of the item's cells with the
   * suspect option as key over the recorded key, under the key-curve refit of
   * keycheck.ts (θ held at the fit, the bank's prior on the curve), must reach
   * this (default 3: the cells are e³ ≈ 20 times likelier with the other key).
   * See `flagItems` for the whole rule and how it was checked.
   */
  minKeyGain?: number;
  /**
   * Mis-keyed: more than this share of the third of LLMs with the highest θ
   * (of those that answered) must put more on the suspect option than on the
   * key (default 0.5, a majority): on a hard item whose key the strongest LLMs
   * choose, a majority of weaker LLMs on one distractor is not a mis-key.
   */
  minTopShare?: number;
  /** Mis-keyed: at least this many LLMs that answered the item put more on the suspect option than on the key. */
  minSupport?: number;
  /** Non-discriminating: mean of a_key − ā(θ) over the LLMs' θ at or below this (default 0). */
  minKeySlope?: number;
  /** Saturated: every LLM puts more than this on one option (default 0.95). */
  saturation?: number;
  /** Duplicates: identical argmax patterns need at least this many LLMs in common (default 10). */
  minDuplicateLlms?: number;
  /**
   * Duplicates: and at least this many LLMs off the pattern's most common
   * option (default 3). Patterns that are all key but for one or two LLMs
   * coincide by chance on any easy benchmark.
   */
  minDuplicateMinority?: number;
}
