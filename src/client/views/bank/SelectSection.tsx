import { useState } from 'react';
import type { ItemBank } from '../../../core/bank/bank';
import { selectItems, type SelectedItem } from '../../../core/bank/select';
import type { ItemText } from '../../../core/data/types';
import { DataTable, type Column } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { downloadTiny } from './catForm';
import { dispatchBank, runTask, type BankUiState } from './store';
import { TaskStatus } from './TaskStatus';
import { CAT_DEFAULTS } from '../../../core/defaults';

type Row = SelectedItem & { rank: number };

const COLUMNS: Column<Row>[] = [
  { key: 'rank', label: '#', value: (r) => r.rank, numeric: true, render: (r) => r.rank },
  { key: 'item', label: 'Item', value: (r) => r.item },
  { key: 'benchmark', label: 'Benchmark', value: (r) => r.benchmark },
  { key: 'info', label: 'Mean info over the range', value: (r) => r.info, numeric: true },
];

/** k and the θ range from the form; throws with a message fit for the user. */
export function selectSettings(k: string, lo: string, hi: string): [number, [number, number]] {
  const n = Number(k);
  if (!(Number.isInteger(n) && n >= 1)) throw new Error('k must be a whole number ≥ 1.');
  const a = Number(lo);
  const b = Number(hi);
  if (!(Number.isFinite(a) && Number.isFinite(b) && a < b))
    throw new Error('The θ range needs two numbers, the first below the second.');
  return [n, [a, b]];
}

/** A fixed tiny benchmark: the k items most informative over a θ range, for every LLM alike. */
export function SelectSection(props: {
  bank: ItemBank;
  against: object;
  st: BankUiState;
  texts: ReadonlyMap<string, ItemText | null>;
}) {
  const { bank, against, st, texts } = props;
  const [k, setK] = useState(String(CAT_DEFAULTS.selectK));
  const [lo, setLo] = useState('-2');
  const [hi, setHi] = useState('2');
  const sel = st.selected?.against === against ? st.selected : null;
  const run = () =>
    void runTask(
      'select',
      'Could not select items',
      async () => {
        const [n, range] = selectSettings(k, lo, hi);
        return { items: selectItems(bank, n, { thetaRange: range }), range, against };
      },
      (entry) => dispatchBank({ type: 'selected', entry }),
    );
  const rows = (sel?.items ?? []).map((r, i) => ({ ...r, rank: i + 1 }));
  return (
    <section className="bank-section" data-section="select" data-state={st.tasks.select.status}>
      <h3>Fixed tiny benchmark (non-adaptive)</h3>
      <p className="muted small">
        The k items with the most information averaged over the θ range, for a reference LLM (s = 1,
        no position bias or fallback): one short test for every LLM.
      </p>
      <div className="row">
        <Field label="k items">
          <input type="number" min={1} step={1} value={k} onChange={(e) => setK(e.target.value)} />
        </Field>
        <Field label="θ from">
          <input type="number" step={0.5} value={lo} onChange={(e) => setLo(e.target.value)} />
        </Field>
        <Field label="θ to">
          <input type="number" step={0.5} value={hi} onChange={(e) => setHi(e.target.value)} />
        </Field>
        <button type="button" onClick={run}>
          Select items
        </button>
      </div>
      <TaskStatus name="select" task={st.tasks.select} />
      {sel && (
        <>
          <DataTable
            rows={rows}
            columns={COLUMNS}
            rowKey={(r) => r.item}
            name="selected-items"
            caption={`Items selected for θ in [${sel.range[0]}, ${sel.range[1]}]`}
          />
          <button
            type="button"
            onClick={() =>
              downloadTiny(
                bank,
                sel.items.map((r) => r.item),
                texts,
                'tiny-benchmark-fixed.csv',
              )
            }
          >
            Export selected items (CSV)
          </button>
        </>
      )}
    </section>
  );
}
