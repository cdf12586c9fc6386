/**
 * The item flags' thresholds (flags.ts says how each was chosen): a leaf file,
 * so that core/defaults.ts can hold their values without importing the flags.
 */
export interface FlagOptions {
  /**
   * Mis-keyed: a distractor's discrimination must exceed the key's by more
   * than this, in units of the bank's own key-vs-distractor separation S =
   * median a over keys − median a over distractors (so the rule does not
   * depend on how much a fit's priors shrink the slopes). See `flagItems` for
   * the whole rule and how it was tuned.
   */
  miskeyGap?: number;
  /**
   * Mis-keyed, with data and a model with the fallback gate: moving the key to
   * the suspect option, with the item's (a, c) refitted to the observed cells
   * and every LLM parameter held, must not raise the item's cross-entropy by
   * more than this (nats, summed over its cells).
   */
  keyFitTol?: number;
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
