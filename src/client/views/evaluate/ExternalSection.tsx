import { useCallback, useMemo } from 'react';
import { externalScatterChart } from '../../../charts/externalScatter';
import type { ExternalRow } from '../../../core/eval/external';
import type { ExternalRequest } from '../../../boundary/evaluateProtocol';
import { Chart } from '../../components/Chart';
import { Check, NumberField } from '../../components/Field';
import type { FitEntry } from '../../state';
import { EvalSection, useSectionRun } from './EvalSection';
import type { MapFile, ScoresFile } from './externalFiles';
import { autoAssign, toMatches, type Assignment } from './matching';
import { NameMatchTable } from './NameMatchTable';
import { parseInteger } from './options';
import { ResultTable } from './ResultTable';
import { ScoreSources } from './ScoreSources';
import { useSavedState } from './savedState';
import { externalChartData } from './shape';
import type { SectionProps } from './types';

/** Series names for fits: the model, numbered where two fits share one. */
function fitNames(req: ExternalRequest): string[] {
  const models = req.fits.map((f) => f.model);
  return models.map((m, i) =>
    models.indexOf(m) !== models.lastIndexOf(m) ? `${m} (${i + 1})` : m,
  );
}

function ExternalResults({
  req,
  rows,
  used,
  scoreLabel,
}: {
  req: ExternalRequest;
  rows: ExternalRow[];
  used: ExternalRequest['matches'];
  scoreLabel: string;
}) {
  const names = fitNames(req);
  const render = useCallback(
    () =>
      externalScatterChart(
        externalChartData(
          req.fits,
          fitNames(req),
          req.scores,
          used,
          req.fits.map((_, f) => rows[f]?.spearman),
          scoreLabel,
        ),
      ),
    [req, rows, used, scoreLabel],
  );
  return (
    <>
      <ResultTable
        caption={`Spearman ρ with ${scoreLabel} over ${used.length} matched LLMs`}
        name="table2-external-validity"
        rows={rows}
        rowKey={(r, i) => `${i}-${r.model}`}
        columns={[
          {
            label: 'Measure',
            cell: (r) => (r.measure === 'theta' ? `θ · ${names[rows.indexOf(r)]}` : 'raw accuracy'),
          },
          { label: 'LLMs', numeric: true, cell: (r) => r.n },
          { label: 'Spearman ρ', numeric: true, cell: (r) => r.spearman.toFixed(3) },
          { label: '± bootstrap sd', numeric: true, cell: (r) => r.bootSd.toFixed(3) },
          {
            label: '95% interval',
            numeric: true,
            cell: (r) => `[${r.bootLo.toFixed(2)}, ${r.bootHi.toFixed(2)}]`,
          },
        ]}
      />
      <Chart render={render} name="table2-external-scatter" heading={`θ against ${scoreLabel}`} />
    </>
  );
}

/** Table 2: does θ rank LLMs as an external score (LMArena) does? */
export function ExternalSection({
  ds,
  busy,
  fits,
}: Omit<SectionProps, 'fitSettings'> & { fits: FitEntry[] }) {
  const [scores, setScores] = useSavedState<ScoresFile | null>('external.scores', null);
  const [map, setMap] = useSavedState<MapFile | null>('external.map', null);
  const [edited, setEdited] = useSavedState<Assignment[] | null>('external.assign', null);
  const [excluded, setExcluded] = useSavedState<number[]>('external.excluded', []);
  const [bootstrap, setBootstrap] = useSavedState('external.bootstrap', '1000');
  const [seed, setSeed] = useSavedState('external.seed', '1');

  const theirs = useMemo(() => scores?.list.map((s) => s.name) ?? [], [scores]);
  const scoreOf = useMemo(() => new Map(scores?.list.map((s) => [s.name, s.score])), [scores]);
  const auto = useMemo(
    () => (scores ? autoAssign(ds.llmIds, theirs, map ? new Map(map.entries) : undefined) : null),
    [ds.llmIds, theirs, scores, map],
  );
  // The user's edits hold while they are for these LLMs and these scores.
  const fitsEdits =
    edited &&
    edited.length === ds.llmIds.length &&
    edited.every((a, j) => a.ours === ds.llmIds[j] && (a.theirs === null || scoreOf.has(a.theirs)));
  const assign = fitsEdits ? edited : auto;
  const chosen = fits.filter((f) => !excluded.includes(f.id));

  const run = useSectionRun(
    ds,
    'external',
    () => {
      if (!scores || !assign) throw new Error('Load a CSV of external scores first.');
      if (chosen.length === 0) throw new Error('Pick at least one fit.');
      return {
        req: {
          kind: 'external',
          fits: chosen.map((f) => f.fit),
          scores: scores.list,
          matches: toMatches(assign),
          bootstrap: parseInteger(bootstrap, 'Bootstrap resamples', 10, 100_000),
          seed: parseInteger(seed, 'Seed', 0),
        },
        about: `${scores.file}, ${chosen.length} fit${chosen.length === 1 ? '' : 's'}`,
      };
    },
    busy,
  );
  return (
    <EvalSection
      run={run}
      options={
        <>
          <ScoreSources
            onScores={(got) => {
              setScores(got);
              setEdited(null);
            }}
            onMap={(got) => {
              setMap(got);
              setEdited(null);
            }}
          />
          <p className="small" data-testid="scores-source">
            {scores
              ? `${scores.list.length} external scores from ${scores.file}`
              : 'No external scores loaded.'}
            {map && ` · name map ${map.file} (${map.entries.length} names)`}
          </p>
          {scores && assign && (
            <NameMatchTable
              assign={assign}
              theirs={theirs}
              score={scoreOf}
              onChange={setEdited}
              onReset={() => setEdited(null)}
            />
          )}
          <fieldset className="model-checks">
            <legend>Fits (θ of each)</legend>
            {fits.map((f) => (
              <Check
                key={f.id}
                checked={!excluded.includes(f.id)}
                onChange={(on) =>
                  setExcluded(on ? excluded.filter((x) => x !== f.id) : [...excluded, f.id])
                }
              >
                {f.label}
              </Check>
            ))}
          </fieldset>
          <div className="form-grid">
            <NumberField
              label="Bootstrap resamples"
              min={10}
              value={bootstrap}
              onChange={setBootstrap}
            />
            <NumberField label="Seed" min={0} value={seed} onChange={setSeed} />
          </div>
        </>
      }
      results={(reply, request) => (
        <ExternalResults
          req={request}
          rows={reply.result.rows}
          used={reply.result.used}
          scoreLabel={scores?.label ?? 'external score'}
        />
      )}
    >
      Spearman ρ between each fit&apos;s θ (and raw accuracy) and an external score over the LLMs
      matched by name, with a bootstrap sd from resampling the matched LLMs.
    </EvalSection>
  );
}
