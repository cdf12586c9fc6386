import { useCallback, useMemo } from 'react';
import { gateChart } from '../../charts/gate';
import { heatmapChart } from '../../charts/heatmap';
import { sharpnessChart } from '../../charts/sharpness';
import { thetaRankingChart } from '../../charts/thetaRanking';
import { isBinary, nominalTerms, type NominalModel } from '../../core/model/types';
import { gateData, positionHeatmap, rankingRows, sharpnessRows } from '../chartData';
import { Chart } from '../components/Chart';
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
