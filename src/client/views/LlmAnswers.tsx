import { useMemo } from 'react';
import type { Dataset } from '../../core/data/types';
import { OPTION_LABELS } from '../../core/data/types';
import { DataTable, type Column } from '../components/DataTable';
import { wrongResponses, type WrongResponse } from '../responses';

const fmtProbs = (r: WrongResponse) =>
  r.probs.map((p, k) => `${OPTION_LABELS[k]} ${p.toFixed(3)}`).join(' · ');

const COLUMNS: Column<WrongResponse>[] = [
  { key: 'item', label: 'Item', value: (r) => r.id },
  { key: 'benchmark', label: 'Benchmark', value: (r) => r.benchmark },
  { key: 'key', label: 'Key', value: (r) => r.key },
  { key: 'answer', label: 'Its argmax', value: (r) => r.answer },
  {
    key: 'keyProb',
    label: 'P(key)',
    value: (r) => r.probs[OPTION_LABELS.indexOf(r.key as 'A')] ?? NaN,
    numeric: true,
  },
  { key: 'probs', label: 'Its probabilities', value: fmtProbs },
];

const SEARCH_KEYS = ['item', 'benchmark'];

/** The items an LLM got wrong, with its full option distribution on each. */
export function LlmAnswers({ ds, j, id }: { ds: Dataset; j: number; id: string }) {
  const rows = useMemo(() => wrongResponses(ds, j), [ds, j]);
  return (
    <section
      className="llm-answers"
      data-testid="llm-answers"
      aria-label={`Wrong answers of ${id}`}
    >
      <h3>
        {id}: {rows.length} wrong answer{rows.length === 1 ? '' : 's'}
      </h3>
      <DataTable
        rows={rows}
        columns={COLUMNS}
        rowKey={(r) => r.item}
        name={`wrong-${id}`}
        caption={`Items ${id} got wrong`}
        searchKeys={SEARCH_KEYS}
      />
    </section>
  );
}
