import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { itemFitBubbleChart } from '../../../charts/itemFitBubble';
import type { Dataset } from '../../../core/data/types';
import type { FitJson } from '../../../core/fit/types';
import { CLASSICAL_COLUMNS, DD_COLUMNS } from '../../../core/psych/classical';
import { FIT_THRESHOLDS, ITEM_FIT_COLUMNS, PERSON_FIT_COLUMNS } from '../../../core/psych/itemfit';
import { RELIABILITY_COLUMNS } from '../../../core/psych/reliability';
import { WH_MAX_Q } from '../../../core/psych/stats';
import type { PsychTables } from '../../../boundary/psychProtocol';
import { getBridge } from '../../bridge';
import { afterNextFrame } from '../../useGradual';
import { useWorkerResult } from '../../workerData';
import { Chart } from '../../components/Chart';
import { ddRows } from './columns';
import { KeyTable } from './KeyTable';
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

/** Renders `children()` one frame after it mounts, so each part of a long page is a task of its own. */
function AfterFrame({ children }: { children: () => ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => afterNextFrame(() => setReady(true)), []);
  return ready ? children() : null;
}

/**
 * The tables, drawn in three tasks (item fit; LLM fit, reliability and the
 * classical table; the DDplot rows and DIF): at 189 × 5,000 drawing them in one
 * was a task of ~60 ms, ~90 ms on a loaded machine.
 */
function PsychTablesView({ tables, ds }: { tables: PsychTables; ds: Dataset }) {
  return (
    <div className="view-grid" data-testid="psychometrics">
      <ItemFitSection mf={tables.modelFit} />
      <AfterFrame>
        {() => (
          <>
            <FitAndReliability tables={tables} />
            <AfterFrame>
              {() => (
                <>
                  <DdSection classical={tables.classical} ds={ds} />
                  <DifSection ds={ds} />
                </>
              )}
            </AfterFrame>
          </>
        )}
      </AfterFrame>
    </div>
  );
}

function ItemFitSection({ mf }: { mf: PsychTables['modelFit'] }) {
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
  const under = mf.items.filter((r) => r.flag === 'underfit').length;
  return (
    <section aria-labelledby="itemfit-h">
      <h3 id="itemfit-h">Item fit</h3>
      <p className="muted">
        Infit and outfit mean squares of the{' '}
        {mf.kind === 'option' ? 'multinomial (option-level)' : 'binary'} residuals, each cell one
        draw from its observed distribution; z by Wilson–Hilferty, shown as — where the mean
        square&apos;s model SD exceeds {WH_MAX_Q} (fewer than 2 degrees of freedom: a few
        near-certain cells decide it, and no normal z applies). Flag: a mean square above{' '}
        {FIT_THRESHOLDS.underfit} (underfit) or both below {FIT_THRESHOLDS.overfit} (overfit).{' '}
        <strong>{under}</strong> of {mf.items.length} items underfit.
      </p>
      <Chart render={renderFit} name="item-fit" heading="Infit against outfit" />
      <KeyTable
        rows={mf.items}
        keys={ITEM_FIT_COLUMNS}
        idKeys={['item']}
        name="itemfit"
        caption="Item fit"
        searchKeys={['item', 'benchmark', 'flag']}
        pageSize={200}
      />
    </section>
  );
}

function FitAndReliability({ tables }: { tables: PsychTables }) {
  const { modelFit: mf, reliability: rel, classical } = tables;
  return (
    <>
      <section aria-labelledby="llmfit-h">
        <h3 id="llmfit-h">LLM (person) fit</h3>
        <KeyTable
          rows={mf.llms}
          keys={PERSON_FIT_COLUMNS}
          idKeys={['llm']}
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
        <KeyTable
          rows={rel}
          keys={RELIABILITY_COLUMNS}
          idKeys={['benchmark']}
          name="reliability"
          caption="Reliability"
        />
      </section>
      <section aria-labelledby="ctt-h">
        <h3 id="ctt-h">Classical item analysis</h3>
        <KeyTable
          rows={classical.items}
          keys={CLASSICAL_COLUMNS}
          idKeys={['item']}
          name="classical"
          caption="Classical item analysis"
          searchKeys={['item', 'benchmark']}
          pageSize={200}
        />
      </section>
    </>
  );
}

function DdSection({ classical, ds }: { classical: PsychTables['classical']; ds: Dataset }) {
  const dd = useMemo(() => ddRows(classical.dd, ds.itemIds), [classical, ds]);
  return (
    <section aria-labelledby="dd-h">
      <h4 id="dd-h">Distractor plot data ({classical.groups} score groups)</h4>
      <KeyTable
        rows={dd}
        keys={DD_COLUMNS}
        idKeys={['item', 'group', 'option']}
        name="ddplot"
        caption="Option shares by score group"
        searchKeys={['item']}
        pageSize={120}
      />
    </section>
  );
}
