import { useCallback } from 'react';
import { bandsChart } from '../../charts/bands';
import { distractorHistogramChart } from '../../charts/distractorHistogram';
import { distractorsByBenchmarkChart } from '../../charts/distractorsByBenchmark';
import { bandsData } from '../chartData';
import { Chart } from '../components/Chart';
import type { Derived } from '../../core/fit/derive';
import { distractorRange } from '../../core/fit/info';
import { ItemPicker } from './ItemPicker';
import type { ViewProps } from './types';

/** Informative distractors per benchmark and per item, and the selected item's dominance bands. */
export function DistractorsView(props: ViewProps & { derived: Derived }) {
  const { fit, ds, item, derived } = props;
  const renderBench = useCallback(
    () => distractorsByBenchmarkChart(derived.infoByBenchmark),
    [derived.infoByBenchmark],
  );
  const renderHist = useCallback(
    () => distractorHistogramChart({ counts: derived.items.map((r) => r.informative) }),
    [derived.items],
  );
  const id = fit.items[item]?.id;
  const range = distractorRange(fit);
  const renderBands = useCallback(
    () =>
      bandsChart(bandsData(fit, ds, item), { title: `Most likely option of item ${id} over θ` }),
    [fit, ds, item, id],
  );
  if (derived.binary)
    return (
      <p className="note" data-testid="binary-note">
        {fit.model} is a binary model: it scores correctness only, so it has no distractor
        parameters. Fit a nominal model (llmnrm, nrm-soft, …) to see distractors.
      </p>
    );
  return (
    <div className="view-grid">
      <p className="lead">
        An informative distractor is a wrong option that is the single most likely response
        somewhere in the fitted LLMs&apos; θ range ({range[0].toFixed(2)}…{range[1].toFixed(2)}),
        the count the items table, the report, <code>llm-nrm info</code> and the &ldquo;no
        informative distractor&rdquo; flag all use.
      </p>
      <Chart
        render={renderBench}
        name="distractors-by-benchmark"
        heading="Informative distractors per item, by benchmark"
      />
      <Chart
        render={renderHist}
        name="distractor-histogram"
        heading="Items by number of informative distractors"
      />
      <ItemPicker {...props} />
      <Chart
        render={renderBands}
        name={`bands-${id}`}
        heading={`Most likely option over θ: ${id}`}
      />
    </div>
  );
}
