import { OPTION_LABELS } from '../../core/data/types';
import type { ItemResult } from '../../core/fit/types';
import { formatDifficulty } from '../../core/model/difficulty';

/** "1.234 ± 0.056" (the Laplace SE when the fit has one). */
function pm(v: number | undefined, se: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '—';
  return se !== undefined && Number.isFinite(se)
    ? `${v.toFixed(3)} ± ${se.toFixed(3)}`
    : v.toFixed(3);
}

/**
 * One item's fitted parameters with their standard errors: per option a and c
 * for a nominal model, slope, d, g and u for a binary one, and the difficulty.
 */
export function ItemParams({ item, binary }: { item: ItemResult; binary: boolean }) {
  const hasSE = item.bSE !== undefined || item.aSE !== undefined || item.slopeSE !== undefined;
  return (
    <div className="item-params" data-testid="item-params">
      {binary ? (
        <p>
          slope {pm(item.slope, item.slopeSE)} · d {pm(item.d, item.dSE)} · g {pm(item.g, item.gSE)}{' '}
          · u {pm(item.u, item.uSE)} · b {formatDifficulty(item)}
        </p>
      ) : (
        <table className="compact">
          <caption className="sr-only">Option parameters</caption>
          <thead>
            <tr>
              <th>Option</th>
              <th className="num">a (slope)</th>
              <th className="num">c (intercept)</th>
            </tr>
          </thead>
          <tbody>
            {(item.a ?? []).map((a, k) => (
              <tr key={k} className={OPTION_LABELS[k] === item.key ? 'key' : undefined}>
                <td>
                  {OPTION_LABELS[k]}
                  {OPTION_LABELS[k] === item.key ? ' (key)' : ''}
                </td>
                <td className="num">{pm(a, item.aSE?.[k])}</td>
                <td className="num">{pm(item.c?.[k], item.cSE?.[k])}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td>b̃</td>
              <td className="num" colSpan={2}>
                {formatDifficulty(item)}
              </td>
            </tr>
          </tfoot>
        </table>
      )}
      <p className="muted small">
        {hasSE
          ? '± one standard error (Laplace, with every other parameter free).'
          : 'This fit carries no standard errors.'}
      </p>
    </div>
  );
}
