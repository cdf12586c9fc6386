import { useCallback } from 'react';
import { distractorsByBenchmarkChart } from '../../../charts/distractorsByBenchmark';
import { formatGain, infoByBenchmarkChart } from '../../../charts/infoByBenchmark';
import type { BenchmarkInfoRow } from '../../../core/eval/info';
import type { FitJson } from '../../../core/fit/types';
import { Chart } from '../../components/Chart';
import { fmtNum } from '../../components/DataTable';
import { fmtPercent } from '../../format';
import { EvalSection, useSectionRun } from './EvalSection';
import { ResultTable } from './ResultTable';
import type { SectionProps } from './types';

function InfoResults({ rows }: { rows: BenchmarkInfoRow[] }) {
  const renderInfo = useCallback(() => infoByBenchmarkChart(rows), [rows]);
  const renderDist = useCallback(() => distractorsByBenchmarkChart(rows), [rows]);
  return (
    <>
      <ResultTable
        caption="Information and informative distractors per benchmark"
        name="fig2-info-by-benchmark"
        rows={rows}
        rowKey={(r, i) => `${i}-${r.benchmark}`}
        columns={[
          { label: 'Benchmark', cell: (r) => r.benchmark },
          { label: 'Items', numeric: true, cell: (r) => r.items },
          { label: 'I binary', numeric: true, cell: (r) => fmtNum(r.infoBinary) },
          { label: 'I wrong', numeric: true, cell: (r) => fmtNum(r.infoWrong) },
          { label: 'Gain', numeric: true, cell: (r) => formatGain(r.gainPct) },
          {
            label: 'Informative distractors / item',
            numeric: true,
            cell: (r) => fmtNum(r.informativeDistractors, 2),
          },
          {
            label: 'Items with one or more',
            numeric: true,
            cell: (r) => fmtPercent(r.shareWithInformative, 0),
          },
        ]}
      />
      <div className="chart-pair">
        <Chart render={renderInfo} name="fig2a-info-by-benchmark" heading="Information per item" />
        <Chart
          render={renderDist}
          name="fig2b-distractors-by-benchmark"
          heading="Informative distractors per item"
        />
      </div>
    </>
  );
}

/** Figs 2a/2b: what distractor identity adds, per benchmark, from the fit on show. */
export function InfoSection({
  ds,
  busy,
  fit,
  fitLabel,
}: Omit<SectionProps, 'fitSettings'> & { fit: FitJson; fitLabel: string }) {
  const run = useSectionRun(
    ds,
    'info',
    () => ({ req: { kind: 'info', fit }, about: `from ${fitLabel}` }),
    busy,
  );
  return (
    <EvalSection
      run={run}
      options={
        <p className="small">
          Reads the fit on show: <strong>{fitLabel}</strong>.
        </p>
      }
      results={(r) => <InfoResults rows={r.result} />}
    >
      Per benchmark, the mean item information in correctness and what the identity of the wrong
      option adds (averaged over the fitted θ), and how many distractors are the most likely answer
      somewhere in the fitted LLMs&apos; θ range (as the items table and the flags count them).
    </EvalSection>
  );
}
