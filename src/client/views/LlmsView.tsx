import { useCallback, useMemo } from 'react';
import { gateChart } from '../../charts/gate';
import { heatmapChart } from '../../charts/heatmap';
import { sharpnessChart } from '../../charts/sharpness';
import { thetaRankingChart } from '../../charts/thetaRanking';
import { thetaAccuracyChart, type ThetaAccuracyData } from '../../charts/thetaAccuracy';
import type { LlmAbilityRow, LlmAbilityViews } from '../../core/eval/abilityViews';
import { isBinary, nominalTerms, type NominalModel } from '../../core/model/types';
import { gateData, positionHeatmap, rankingRows, sharpnessRows } from '../chartData';
import { getBridge } from '../bridge';
import { useWorkerResult } from '../workerData';
import { Chart } from '../components/Chart';
import { DataTable, fmtNum, type Column } from '../components/DataTable';
import { LlmAnswers } from './LlmAnswers';
import type { ViewProps } from './types';

/** Ranking, sharpness, position bias, fallback and the chosen LLM's wrong answers. */
export function LlmsView(props: ViewProps & { llm: string | null; onLlm: (id: string) => void }) {
  const { fit, ds, llm, onLlm } = props;
  const flags = isBinary(fit.model) ? null : nominalTerms(fit.model as NominalModel);
  const renderRank = useCallback(() => thetaRankingChart(rankingRows(fit)), [fit]);
  const renderSharp = useCallback(() => sharpnessChart(sharpnessRows(fit)), [fit]);
  const renderDelta = useCallback(() => heatmapChart(positionHeatmap(fit, 'delta')), [fit]);
  const renderRho = useCallback(() => heatmapChart(positionHeatmap(fit, 'rho')), [fit]);
  const gate = useMemo(() => gateData(fit, ds), [fit, ds]);
  const renderGate = useCallback(() => gateChart(gate), [gate]);
  const activate = useCallback(
    (target: Element) => {
      const id = target.closest('[data-llm]')?.getAttribute('data-llm');
      if (id) onLlm(id);
    },
    [onLlm],
  );
  const j = llm === null ? -1 : fit.llms.findIndex((l) => l.id === llm);
  return (
    <div className="view-grid">
      <p className="lead">
        Click an LLM (or press Enter on its row) to list the items it got wrong.
      </p>
      <Chart
        render={renderRank}
        name="theta-ranking"
        onActivate={activate}
        heading="Ability θ (±SE) and accuracy"
      />
      {j >= 0 && <LlmAnswers ds={ds} j={j} id={fit.llms[j].id} />}
      <AbilitySection fit={fit} ds={ds} />
      {flags?.sharpness && (
        <Chart render={renderSharp} name="sharpness" heading="Response sharpness s" />
      )}
      {flags?.position && (
        <Chart
          render={renderDelta}
          name="position-bias-delta"
          heading="Positional bias δ (LLM × position)"
        />
      )}
      {flags?.fallback && (
        <Chart
          render={renderRho}
          name="fallback-rho"
          heading="Fallback logits ρ (LLM × position)"
        />
      )}
      {flags?.fallback && (
        <Chart
          render={renderGate}
          name="fallback-gate"
          heading="Fallback gate G over θ − b̃ (observed cells)"
        />
      )}
      {!flags && (
        <p className="note">
          {fit.model} is a binary model: it has no sharpness, position bias or fallback terms.
        </p>
      )}
    </div>
  );
}

/** The worker's ability rows as the θ-vs-accuracy chart's data (marked LLMs numbered). */
function thetaAccuracyData(v: LlmAbilityViews): ThetaAccuracyData {
  const marker = new Map(v.marked.map((id, k) => [id, k + 1]));
  return {
    model: v.model,
    rho: v.spearman.thetaAccuracy,
    points: v.rows.map((r) => ({
      label: r.llm,
      accuracy: r.accuracy,
      theta: r.theta,
      thetaSE: r.thetaSE,
      rankTheta: r.rankTheta,
      rankAccuracy: r.rankAccuracy,
      marker: marker.get(r.llm),
    })),
    notes: v.marked.map((id, k) => ({
      marker: k + 1,
      text: v.rows.find((r) => r.llm === id)?.explanation ?? id,
    })),
  };
}

const rank = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

const ABILITY_COLUMNS: Column<LlmAbilityRow>[] = [
  { key: 'llm', label: 'LLM', value: (r) => r.llm },
  { key: 'accuracy', label: 'Accuracy', value: (r) => r.accuracy, numeric: true },
  {
    key: 'theta',
    label: 'θ (all options)',
    value: (r) => r.theta,
    render: (r) => `${fmtNum(r.theta, 2)} ± ${fmtNum(r.thetaSE, 2)}`,
    numeric: true,
  },
  {
    key: 'thetaCorrectness',
    label: 'θ (correctness only)',
    value: (r) => r.thetaCorrectness,
    render: (r) => fmtNum(r.thetaCorrectness, 2),
    numeric: true,
  },
  {
    key: 'thetaWrong',
    label: 'θ (wrong answers only)',
    value: (r) => r.thetaWrong,
    render: (r) => `${fmtNum(r.thetaWrong, 2)} (${r.nWrong} wrong)`,
    numeric: true,
  },
  {
    key: 'expectedAccuracy',
    label: 'Expected accuracy (model)',
    value: (r) => r.expectedAccuracy,
    render: (r) => fmtNum(r.expectedAccuracy, 3),
    numeric: true,
  },
  {
    key: 's',
    label: 'Sharpness s',
    value: (r) => r.s,
    render: (r) => fmtNum(r.s, 2),
    numeric: true,
  },
  {
    key: 'infit',
    label: 'Infit',
    value: (r) => r.infit,
    render: (r) => fmtNum(r.infit, 2),
    numeric: true,
  },
  {
    key: 'outfit',
    label: 'Outfit',
    value: (r) => r.outfit,
    render: (r) => fmtNum(r.outfit, 2),
    numeric: true,
  },
  { key: 'fitFlag', label: 'Person fit', value: (r) => r.fitFlag || 'ok' },
  {
    key: 'rankGap',
    label: 'Rank θ / accuracy',
    value: (r) => r.rankGap,
    render: (r) => `${rank(r.rankTheta)} / ${rank(r.rankAccuracy)}`,
    numeric: true,
  },
];

/**
 * θ three ways (all options, correctness only, wrong answers only), person
 * fit, and θ against accuracy with the LLMs they rank apart most explained.
 * Computed in the worker (core/eval/abilityViews); drawn here.
 */
function AbilitySection({ fit, ds }: Pick<ViewProps, 'fit' | 'ds'>) {
  const run = useCallback((signal: AbortSignal) => getBridge().llmAbility(signal, fit), [fit]);
  const result = useWorkerResult(ds, run);
  const chartData = useMemo(
    () => (result && 'value' in result ? thetaAccuracyData(result.value) : null),
    [result],
  );
  const renderChart = useCallback(
    () => thetaAccuracyChart(chartData ?? { model: fit.model, points: [], notes: [] }),
    [chartData, fit.model],
  );
  if (!result)
    return (
      <p className="muted" role="status" data-testid="ability-computing">
        Scoring θ from correctness and from wrong answers…
      </p>
    );
  if ('error' in result)
    return (
      <p role="alert" data-testid="ability-error">
        Could not compute θ from correctness and wrong answers: {result.error}
      </p>
    );
  const { spearman } = result.value;
  return (
    <section aria-labelledby="ability-h" data-testid="ability-section">
      <h3 id="ability-h">Is θ believable? θ three ways, person fit and accuracy</h3>
      <p className="muted">
        θ from correctness only and from wrong answers only are rescored against this fit&apos;s
        items. Spearman: θ with accuracy {fmtNum(spearman.thetaAccuracy, 2)}; θ from correctness
        with θ {fmtNum(spearman.correctnessTheta, 2)}; θ from wrong answers with θ{' '}
        {fmtNum(spearman.wrongTheta, 2)}. Person fit: infit/outfit mean squares above 1.3 mean the
        model does not explain the LLM&apos;s answers. Expected accuracy is the fit&apos;s mean
        P(key) with the LLM&apos;s sharpness, position bias and fallback folded in; θ is ability net
        of sharpness, so a very flat or very confident LLM can rank by θ away from its accuracy (the
        notes under the chart say which, and why).
      </p>
      <Chart render={renderChart} name="theta-accuracy" heading="Ability θ against accuracy" />
      <DataTable
        rows={result.value.rows}
        columns={ABILITY_COLUMNS}
        rowKey={(r) => r.llm}
        name="llm-ability"
        caption="θ from all options, correctness only and wrong answers only, with person fit"
        initialSort={{ key: 'theta', desc: true }}
      />
    </section>
  );
}
