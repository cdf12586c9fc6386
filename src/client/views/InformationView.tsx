import { useCallback, useMemo } from 'react';
import { infoByBenchmarkChart } from '../../charts/infoByBenchmark';
import { infoDistributionChart } from '../../charts/infoDistribution';
import { testInfoChart } from '../../charts/testInfo';
import { GRID } from '../chartData';
import { Chart } from '../components/Chart';
import { testInformation, type Derived } from '../../core/fit/derive';
import { fmtPercent } from '../format';
import type { ViewProps } from './types';

/** Information per benchmark (binary vs distractor identity), its spread, and test information. */
export function InformationView({ fit, ds, derived }: ViewProps & { derived: Derived }) {
  const renderBench = useCallback(
    () => infoByBenchmarkChart(derived.infoByBenchmark),
    [derived.infoByBenchmark],
  );
  const renderDist = useCallback(
    () =>
      infoDistributionChart({
        values: derived.items.map((r) => r.infoBinary + r.infoWrong),
        label: 'Mean item information over the LLMs',
      }),
    [derived.items],
  );
  const info = useMemo(() => testInformation(fit, ds, GRID), [fit, ds]);
  const renderTest = useCallback(
    () => testInfoChart({ theta: GRID, info, llmTheta: fit.llms.map((l) => l.theta) }),
    [info, fit],
  );
  const gain = useMemo(() => {
    let b = 0;
    let w = 0;
    for (const r of derived.items) {
      b += r.infoBinary;
      w += r.infoWrong;
    }
    return b > 0 ? w / b : NaN;
  }, [derived.items]);
  return (
    <div className="view-grid">
      {!derived.binary && (
        <p className="lead">
          Distractor identity adds <strong>{fmtPercent(gain, 0)}</strong> information beyond
          correctness, averaged over items and the fitted LLMs.
        </p>
      )}
      <Chart
        render={renderBench}
        name="info-by-benchmark"
        heading="Information per item, by benchmark"
      />
      <Chart
        render={renderDist}
        name="info-distribution"
        heading="Distribution of item information"
      />
      <Chart render={renderTest} name="test-information" heading="Test information" />
    </div>
  );
}
