import { useId } from 'react';
import { downloadBlob } from '../../../charts/export';
import type { ItemFlag } from '../../../core/bank/flags';
import type { Column } from '../../components/DataTable';
import type { ItemRow } from '../../../core/fit/derive';
import {
  FLAG_KINDS,
  FLAG_LABELS,
  flaggedCsv,
  flagLabels,
  flagTitle,
  type FlagFilter,
  type FlagIndex,
} from './flags';
import './bank.css';

/** The items table's Flags column: short labels, the reason and evidence on hover. */
export function flagsColumn(idx: FlagIndex): Column<ItemRow> {
  return {
    key: 'flags',
    label: 'Flags',
    value: (r) => flagLabels(idx.byItem.get(r.id)),
    render: (r) => <FlagChips flags={idx.byItem.get(r.id) ?? []} />,
  };
}

function FlagChips({ flags }: { flags: ItemFlag[] }) {
  return (
    <span className="flag-chips">
      {flags.map((f, i) => (
        <span key={i} className={`flag-chip flag-${f.flag}`} title={flagTitle(f)}>
          {FLAG_LABELS[f.flag]}
        </span>
      ))}
    </span>
  );
}

/** Filter by flag type and "Export flagged items (CSV)", above the items table. */
export function FlagTools(props: {
  flags: FlagIndex;
  filter: FlagFilter;
  onFilter: (f: FlagFilter) => void;
}) {
  const { flags, filter, onFilter } = props;
  const id = useId();
  const flagged = flags.byItem.size;
  const exportCsv = () =>
    downloadBlob(new Blob([flaggedCsv(flags, filter)], { type: 'text/csv' }), 'flagged-items.csv');
  return (
    <div className="flag-tools row" data-testid="flag-tools">
      <label htmlFor={id}>Flags</label>
      <select id={id} value={filter} onChange={(e) => onFilter(e.target.value as FlagFilter)}>
        <option value="all">all items</option>
        <option value="any">any flag ({flagged} items)</option>
        <option value="none">no flag</option>
        {FLAG_KINDS.map((k) => (
          <option key={k} value={k}>
            {FLAG_LABELS[k]} ({flags.counts.get(k) ?? 0})
          </option>
        ))}
      </select>
      <button type="button" className="small" onClick={exportCsv} disabled={filter === 'none'}>
        Export flagged items (CSV)
      </button>
    </div>
  );
}

/** The selected item's flags with their reasons and evidence. */
export function ItemFlagList({ item, flags }: { item: string; flags: ItemFlag[] }) {
  return (
    <div className="item-flags" data-testid="item-flags">
      <h4>Quality flags of {item}</h4>
      {flags.length === 0 ? (
        <p className="muted">None: no check found a problem with this item.</p>
      ) : (
        <ul className="plain">
          {flags.map((f, i) => (
            <li key={i}>
              <span className={`flag-chip flag-${f.flag}`}>{FLAG_LABELS[f.flag]}</span> {f.reason}{' '}
              <span className="muted small">({f.evidence})</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
