/**
 * The editable name mapping of the external-validity run: our LLM names
 * against the external file's, matched automatically (`matchNames`) and then
 * changed by the user one row at a time. Pure.
 */
import { matchNames, type NameMatch } from '../../../core/eval/names';

/** How a row got its match, as the table shows it. */
export type AssignHow = 'exact' | 'normalised' | 'map' | 'manual' | 'none';

export interface Assignment {
  ours: string;
  theirs: string | null;
  how: AssignHow;
  /** The map's alias that matched ('map' rows). */
  via?: string;
}

export const HOW_LABELS: Record<AssignHow, string> = {
  exact: 'exact',
  normalised: 'normalised',
  map: 'from map',
  manual: 'manual',
  none: 'unmatched',
};

/** Automatic matches: exact string, normalised name (case, punctuation, org, suffix, date), or via the map. */
export function autoAssign(
  ours: readonly string[],
  theirs: readonly string[],
  map?: ReadonlyMap<string, string>,
): Assignment[] {
  const found = new Map(matchNames(ours, theirs, map).matches.map((m) => [m.ours, m]));
  return ours.map((o) => {
    const m = found.get(o);
    if (!m) return { ours: o, theirs: null, how: 'none' };
    if (m.via !== undefined) return { ours: o, theirs: m.theirs, how: 'map', via: m.via };
    return { ours: o, theirs: m.theirs, how: m.how === 'exact' ? 'exact' : 'normalised' };
  });
}

/** The user's choice for one row (null: no match). */
export function reassign(list: Assignment[], ours: string, theirs: string | null): Assignment[] {
  return list.map((a) =>
    a.ours !== ours ? a : { ours, theirs, how: theirs === null ? 'none' : 'manual' },
  );
}

/** The matched rows as the core takes them (externalValidity reads only the two names). */
export function toMatches(list: Assignment[]): NameMatch[] {
  return list.flatMap((a) =>
    a.theirs === null
      ? []
      : [
          {
            ours: a.ours,
            theirs: a.theirs,
            how: a.how === 'exact' ? 'exact' : 'normalised',
            ...(a.via !== undefined ? { via: a.via } : {}),
          },
        ],
  );
}

/** External names given to more than one of our LLMs. */
export function duplicateMatches(list: Assignment[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const a of list) {
    if (a.theirs === null) continue;
    if (seen.has(a.theirs)) twice.add(a.theirs);
    seen.add(a.theirs);
  }
  return twice;
}
