/**
 * Matching LLM names across sources (our data against a leaderboard). Names
 * differ by case, punctuation, an organisation prefix ("meta-llama/",
 * "Meta-"), chat suffixes ("-Instruct", "-Chat", "-it", "-hf") and dates
 * ("-2507", "-20240620", "-2024-08-06").
 */

export type MatchHow = 'exact' | 'case' | 'normalised';

export interface NameMatch {
  ours: string;
  theirs: string;
  /** The tier that matched: same string, same up to case/punctuation/org path, same after normalising. */
  how: MatchHow;
  /** The alias from the user's map that matched, when the map was used. */
  via?: string;
}

export interface NameMatching {
  matches: NameMatch[];
  unmatchedOurs: string[];
  unmatchedTheirs: string[];
}

/** Leading name tokens that are organisations, not part of the model name. */
const ORG_TOKENS = new Set([
  'meta',
  'microsoft',
  'google',
  'mistralai',
  'alibaba',
  'allenai',
  'openai',
  'anthropic',
]);
/** Trailing tokens that name a chat variant, packaging or precision. */
const SUFFIX_TOKENS = new Set(['instruct', 'chat', 'it', 'hf', 'bf16', 'fp16', 'fp8']);
/** Date-like tokens: YYMM/MMDD, YYMMDD, YYYYMMDD. */
const DATE_TOKEN = /^(\d{4}|\d{6}|(19|20)\d{6})$/;

function tokens(name: string): string[] {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return base
    .toLowerCase()
    .replace(/(19|20)\d{2}-[01]\d-[0-3]\d/g, ' ') // ISO dates
    .split(/[^a-z0-9.]+/)
    .map((t) => t.replace(/^\.+|\.+$/g, ''))
    .filter(Boolean);
}

/**
 * Name keys at two levels. Level 1: lower case, the path before the last '/'
 * dropped, runs of punctuation other than '.' folded to '-'. Level 2 also drops
 * leading organisation tokens, date tokens after the first, and trailing
 * variant tokens (instruct, chat, it, hf, bf16, fp16, fp8).
 */
export function nameKey(name: string, level: 1 | 2): string {
  let t = tokens(name);
  if (level === 1) return t.join('-');
  while (t.length > 1 && ORG_TOKENS.has(t[0])) t = t.slice(1);
  t = t.filter((x, q) => q === 0 || !DATE_TOKEN.test(x));
  while (t.length > 1 && SUFFIX_TOKENS.has(t[t.length - 1])) t = t.slice(0, -1);
  return t.join('-');
}

/**
 * Match our names to theirs, one to one. Tiers, in order over all names: exact
 * string, level-1 key, level-2 key (`nameKey`). With a map (our name → their
 * name, e.g. NAEP names → Hugging Face ids), the mapped aliases go through all
 * tiers first; names still unmatched then try their own name. Among several of their names with the same
 * key, the first in their order wins (a leaderboard lists the best first).
 */
export function matchNames(
  ours: readonly string[],
  theirs: readonly string[],
  map?: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
): NameMatching {
  const alias = (o: string): string | undefined =>
    map instanceof Map ? map.get(o) : (map as Record<string, string> | undefined)?.[o];
  const used = new Set<number>();
  const found = new Map<string, NameMatch>();
  const tiers: { how: MatchHow; key: (s: string) => string }[] = [
    { how: 'exact', key: (s) => s },
    { how: 'case', key: (s) => nameKey(s, 1) },
    { how: 'normalised', key: (s) => nameKey(s, 2) },
  ];
  // The user's aliases first (every tier), then our own names (every tier).
  for (const phase of ['alias', 'own'] as const) {
    for (const tier of tiers) {
      const index = new Map<string, number[]>();
      theirs.forEach((t, q) => {
        const k = tier.key(t);
        if (!k) return;
        const list = index.get(k);
        if (list) list.push(q);
        else index.set(k, [q]);
      });
      for (const o of ours) {
        if (found.has(o)) continue;
        const a = alias(o);
        const cand = phase === 'alias' ? a : o;
        if (!cand) continue;
        const q = index.get(tier.key(cand))?.find((x) => !used.has(x));
        if (q === undefined) continue;
        used.add(q);
        found.set(o, {
          ours: o,
          theirs: theirs[q],
          how: tier.how,
          ...(phase === 'alias' ? { via: a } : {}),
        });
      }
    }
  }
  return {
    matches: ours.filter((o) => found.has(o)).map((o) => found.get(o)!),
    unmatchedOurs: ours.filter((o) => !found.has(o)),
    unmatchedTheirs: theirs.filter((_, q) => !used.has(q)),
  };
}
