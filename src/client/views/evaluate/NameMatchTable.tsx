import { useMemo } from 'react';
import { duplicateMatches, HOW_LABELS, reassign, type Assignment } from './matching';

const NONE = '';

/**
 * Our LLM names against the external file's, one editable row each: the
 * match (a select over every external name, or none), how it was found, and
 * the external score. Unmatched names are listed below.
 */
export function NameMatchTable({
  assign,
  theirs,
  score,
  onChange,
  onReset,
}: {
  assign: Assignment[];
  /** External names, in file order. */
  theirs: readonly string[];
  score: ReadonlyMap<string, number>;
  onChange: (next: Assignment[]) => void;
  onReset: () => void;
}) {
  // One list of <option>s shared by every row's select.
  const options = useMemo(
    () =>
      [...new Set(theirs)]
        .sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }))
        .map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        )),
    [theirs],
  );
  const twice = duplicateMatches(assign);
  const unmatched = assign.filter((a) => a.theirs === null).map((a) => a.ours);
  const matched = assign.length - unmatched.length;
  return (
    <div className="name-matches" data-testid="name-matches">
      <div className="table-tools">
        <span className="muted">
          {matched} of {assign.length} LLMs matched
        </span>
        <button type="button" className="small" onClick={onReset}>
          Match automatically again
        </button>
      </div>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Name matching">
        <table>
          <caption className="sr-only">Our LLM names and their external names</caption>
          <thead>
            <tr>
              <th scope="col">Our name</th>
              <th scope="col">External name</th>
              <th scope="col">How</th>
              <th scope="col" className="num">
                Score
              </th>
            </tr>
          </thead>
          <tbody>
            {assign.map((a) => (
              <tr key={a.ours} data-llm={a.ours} data-how={a.how}>
                <td>{a.ours}</td>
                <td>
                  <select
                    aria-label={`External name for ${a.ours}`}
                    value={a.theirs ?? NONE}
                    onChange={(e) =>
                      onChange(
                        reassign(assign, a.ours, e.target.value === NONE ? null : e.target.value),
                      )
                    }
                  >
                    <option value={NONE}>— no match —</option>
                    {options}
                  </select>
                  {a.theirs !== null && twice.has(a.theirs) && (
                    <span className="warn"> also matched to another LLM</span>
                  )}
                </td>
                <td title={a.via ? `via ${a.via}` : undefined}>{HOW_LABELS[a.how]}</td>
                <td className="num">
                  {a.theirs !== null && score.has(a.theirs) ? score.get(a.theirs) : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small" data-testid="unmatched">
        {unmatched.length
          ? `Unmatched (${unmatched.length}): ${unmatched.join(', ')}`
          : 'Every LLM is matched.'}
      </p>
    </div>
  );
}
