import { useMemo, useState } from 'react';
import type { Dataset } from '../../core/data/types';
import { OPTION_LABELS } from '../../core/data/types';
import { itemPreview, type ItemPreview } from '../../core/data/itemPreview';
import { DataTable, type Column } from '../components/DataTable';
import { fmtPercent } from '../format';
import { accuracyColumn, itemIdColumns, ITEM_SEARCH_KEYS } from './itemColumns';

interface Row {
  index: number;
  id: string;
  benchmark: string;
  key: string;
  question: string;
  accuracy: number;
  choice: number[];
  keyIndex: number;
}

/** "A 10% · B 70% ✓ · …": each option's share of the LLMs' top choices, the key ticked. */
function ChoiceShares({ choice, keyIndex }: { choice: number[]; keyIndex: number }) {
  return (
    <span className="choice-shares">
      {choice.map((c, k) => (
        <span key={k} className={k === keyIndex ? 'key' : undefined}>
          {OPTION_LABELS[k]} {fmtPercent(c, 0)}
          {k === keyIndex ? ' ✓' : ''}
        </span>
      ))}
    </span>
  );
}

const COLUMNS: Column<Row>[] = [
  ...itemIdColumns<Row>(),
  {
    key: 'question',
    label: 'Question',
    value: (r) => r.question,
    render: (r) => <span className="question-cell">{r.question || '—'}</span>,
  },
  accuracyColumn<Row>(),
  {
    key: 'choice',
    label: 'Top choices (share of LLMs)',
    value: (r) => r.choice.map((c, k) => `${OPTION_LABELS[k]}=${c.toFixed(3)}`).join(' '),
    render: (r) => <ChoiceShares choice={r.choice} keyIndex={r.keyIndex} />,
  },
];

const SEARCH = [...ITEM_SEARCH_KEYS, 'question'];

/**
 * The loaded items before any fit: texts, observed accuracy and how the LLMs'
 * top choices spread over the options, so there is something to read while
 * the model fits (or before the user starts a long one).
 */
export function LoadedItems({ ds, preview }: { ds: Dataset; preview?: ItemPreview }) {
  const stats = useMemo(() => preview ?? itemPreview(ds), [ds, preview]);
  const rows = useMemo<Row[]>(
    () =>
      ds.itemIds.map((id, i) => ({
        index: i,
        id,
        benchmark: ds.benchmarks[i],
        key: OPTION_LABELS[ds.key[i]],
        keyIndex: ds.key[i],
        question: ds.itemTexts?.[i]?.question ?? '',
        accuracy: stats.accuracy[i],
        choice: stats.choice[i] ?? [],
      })),
    [ds, stats],
  );
  const [sel, setSel] = useState(0);
  const text = ds.itemTexts?.[sel] ?? null;
  return (
    <section className="loaded-items" data-testid="loaded-items" aria-labelledby="loaded-items-h">
      <h2 id="loaded-items-h">Loaded items</h2>
      <p className="muted small">
        As read from the data, before any fit: accuracy is the share of LLMs whose most probable
        option is the key; the last column spreads the LLMs&apos; top choices over the options.
      </p>
      <DataTable
        rows={rows}
        columns={COLUMNS}
        rowKey={(r) => r.index}
        name="loaded-items"
        caption="Loaded items"
        searchKeys={SEARCH}
        selected={sel}
        onSelect={(r) => setSel(r.index)}
        pageSize={50}
      />
      {text && (
        <div className="item-text" data-testid="loaded-item-text">
          <p className="question-text">{text.question}</p>
          <ol className="options" type="A">
            {text.options.slice(0, ds.nOptions[sel]).map((o, k) => (
              <li key={k} className={k === ds.key[sel] ? 'key' : undefined}>
                {o || <em>(no text)</em>}
                {k === ds.key[sel] ? ' ✓' : ''}{' '}
                <span className="muted">
                  ({fmtPercent(stats.choice[sel]?.[k] ?? NaN, 0)} top choice)
                </span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
