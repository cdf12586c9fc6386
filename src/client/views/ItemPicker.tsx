import { useId } from 'react';
import type { ViewProps } from './types';

/** Previous / next and a select over items, for views without the items table. */
export function ItemPicker({ fit, item, onItem }: ViewProps) {
  const id = useId();
  const n = fit.items.length;
  return (
    <div className="row item-picker">
      <label htmlFor={id}>Item</label>
      <button
        type="button"
        className="small"
        onClick={() => onItem(Math.max(0, item - 1))}
        disabled={item <= 0}
      >
        ‹ Previous
      </button>
      <select id={id} value={item} onChange={(e) => onItem(Number(e.target.value))}>
        {fit.items.map((it, i) => (
          <option key={it.id} value={i}>
            {it.id}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="small"
        onClick={() => onItem(Math.min(n - 1, item + 1))}
        disabled={item >= n - 1}
      >
        Next ›
      </button>
    </div>
  );
}
