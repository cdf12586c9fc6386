import { useCallback, useMemo } from 'react';
import { itemFitBubbleChart } from '../../../charts/itemFitBubble';
import type { Dataset } from '../../../core/data/types';
import type { FitJson } from '../../../core/fit/types';
import { CLASSICAL_COLUMNS, DD_COLUMNS } from '../../../core/psych/classical';
import { FIT_THRESHOLDS, ITEM_FIT_COLUMNS, PERSON_FIT_COLUMNS } from '../../../core/psych/itemfit';
import { RELIABILITY_COLUMNS } from '../../../core/psych/reliability';
import type { PsychTables } from '../../../boundary/psychProtocol';
import { getBridge } from '../../bridge';
import { useWorkerResult } from '../../workerData';
import { Chart } from '../../components/Chart';
import { DataTable } from '../../components/DataTable';
import { columnsOf, ddRows } from './columns';
import { DifSection } from './DifSection';

/**
 * What a psychometrician looks for beside the curves: item and LLM fit,
 * reliability, classical item analysis with the DDplot data, and DIF. Each
 * table has its CSV export. Model comparison needs cross-validated refits and
 * runs in `llm-nrm compare`. The tables are computed in the worker (seconds
 * for thousands of items); the page only draws them.
 */
export function PsychometricsView({ fit, ds }: { fit: FitJson; ds: Dataset }) {
  const run = useCallback((signal: AbortSignal) => getBridge().psych(signal, fit), [fit]);
  const tables = useWorkerResult(ds, run);
  if (!tables)
    return (
      <p className="muted" role="status" data-testid="psych-computing">
        Computing the psychometric tables…
      </p>
    );
  if ('error' in tables)
    return (
      <p role="alert" data-testid="psych-error">
        Could not compute the psychometric tables: {tables.error}
      </p>
    );
  return <PsychTablesView tables={tables.value} ds={ds} />;
}

function PsychTablesView({
  tables: { modelFit: mf, reliability: rel, classical: ctt },
  ds,
}: {
  tables: PsychTables;
  ds: Dataset;
}) {
  const classical = useMemo(() => ({ ...ctt, dd: ddRows(ctt.dd, ds.itemIds) }), [ctt, ds]);
  const renderFit = useCallback(
    () =>
      itemFitBubbleChart({
        points: mf.items.map((r) => ({
          id: r.item,
          infit: r.infit,
          outfit: r.outfit,
          n: r.n,
          flagged: r.flag !== '',
        })),
        lower: FIT_THRESHOLDS.overfit,
        upper: FIT_THRESHOLDS.underfit,
      }),
    [mf],
  );
  const cols = useMemo(
    () => ({
      items: columnsOf(mf.items, ITEM_FIT_COLUMNS),
      llms: columnsOf(mf.llms, PERSON_FIT_COLUMNS),
      rel: columnsOf(rel, RELIABILITY_COLUMNS),
      classical: columnsOf(classical.items, CLASSICAL_COLUMNS),
      dd: columnsOf(classical.dd, DD_COLUMNS),
    }),
    [mf, rel, classical],
  );
  const under = mf.items.filter((r) => r.flag === 'underfit').length;
  return (
    <div className="view-grid" data-testid="psychometrics">
      <section aria-labelledby="itemfit-h">
        <h3 id="itemfit-h">Item fit</h3>
        <p className="muted">
          Infit and outfit mean squares of the{' '}
          {mf.kind === 'option' ? 'multinomial (option-level)' : 'binary'} residuals, each cell one
          draw from its observed distribution; z by Wilson–Hilferty. Flag: a mean square above{' '}
          {FIT_THRESHOLDS.underfit} (underfit) or both below {FIT_THRESHOLDS.overfit} (overfit).{' '}
          <strong>{under}</strong> of {mf.items.length} items underfit.
        </p>
        <Chart render={renderFit} name="item-fit" heading="Infit against outfit" />
        <DataTable
          rows={mf.items}
          columns={cols.items}
          rowKey={(r) => r.item}
          name="itemfit"
          caption="Item fit"
          searchKeys={['item', 'benchmark', 'flag']}
          pageSize={200}
        />
      </section>
      <section aria-labelledby="llmfit-h">
        <h3 id="llmfit-h">LLM (person) fit</h3>
        <DataTable
          rows={mf.llms}
          columns={cols.llms}
          rowKey={(r) => r.llm}
          name="llmfit"
          caption="LLM fit"
        />
      </section>
      <section aria-labelledby="rel-h">
        <h3 id="rel-h">Reliability</h3>
        <p className="muted">
          Empirical: var(θ̂)/(var(θ̂) + mean SE²); marginal: 1/(1 + E[1/I(θ)]) over θ ~ N(0, 1);
          Cronbach&apos;s α on correctness over the LLMs observed on every item.
        </p>
        <DataTable
          rows={rel}
          columns={cols.rel}
          rowKey={(r) => r.benchmark}
          name="reliability"
          caption="Reliability"
        />
      </section>
      <section aria-labelledby="ctt-h">
        <h3 id="ctt-h">Classical item analysis</h3>
        <DataTable
          rows={classical.items}
          columns={cols.classical}
          rowKey={(r) => r.item}
          name="classical"
          caption="Classical item analysis"
          searchKeys={['item', 'benchmark']}
          pageSize={200}
        />
        <h4>Distractor plot data ({classical.groups} score groups)</h4>
        <DataTable
          rows={classical.dd}
          columns={cols.dd}
          rowKey={(r) => `${r.item}|${r.group}|${r.option}`}
          name="ddplot"
          caption="Option shares by score group"
          searchKeys={['item']}
          pageSize={120}
        />
      </section>
      <DifSection ds={ds} />
    </div>
  );
}
