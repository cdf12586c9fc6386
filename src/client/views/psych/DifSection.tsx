import { useCallback, useMemo, useState } from 'react';
import { difEffectChart } from '../../../charts/difEffect';
import type { Dataset } from '../../../core/data/types';
import { DIF_PAIR_COLUMNS } from '../../../core/psych/dif';
import { groupsOf, parseGroups } from '../../../core/psych/groups';
import { getBridge } from '../../bridge';
import { useWorkerResult } from '../../workerData';
import { Chart } from '../../components/Chart';
import { KeyTable } from './KeyTable';

const MH_COLUMNS = [
  ...DIF_PAIR_COLUMNS,
  'deltaMH',
  'deltaSE',
  'deltaLo',
  'deltaHi',
  'chi2',
  'p',
  'ets',
  'flag',
] as const;

/** Groups from the model names' first word ('Qwen2.5-7B' → 'Qwen2.5'): a quick family split. */
function familyGroups(ids: string[]): Map<string, string> {
  return new Map(ids.map((id) => [id, id.split(/[-_ ]/)[0] || id]));
}

/**
 * Mantel–Haenszel DIF between groups of LLMs, from a `model,group` CSV or the
 * model-name families, computed in the worker. The likelihood-ratio test is
 * in `llm-nrm dif`.
 */
export function DifSection({ ds }: { ds: Dataset }) {
  const [map, setMap] = useState<Map<string, string> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [source, setSource] = useState('');
  const split = useMemo(() => (map ? groupsOf(ds.llmIds, map) : null), [ds, map]);
  const run = useMemo(() => {
    if (!split || split.names.length < 2) return null;
    const req = { data: { itemIds: ds.itemIds, llmIds: ds.llmIds }, ...split };
    return (signal: AbortSignal) => getBridge().dif(signal, req);
  }, [ds, split]);
  const mh = useWorkerResult(ds, run);
  const result = !split
    ? null
    : split.names.length < 2
      ? { error: 'Fewer than two groups have LLMs in the data.' }
      : mh && 'error' in mh
        ? { error: mh.error }
        : mh && { rows: mh.value, names: split.names };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      setMap(parseGroups(await file.text(), file.name));
      setSource(file.name);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const rows = result && 'rows' in result ? result.rows : null;
  const top = useMemo(
    () =>
      rows
        ? [...rows]
            .filter((r) => Number.isFinite(r.deltaMH))
            .sort((a, b) => Math.abs(b.deltaMH) - Math.abs(a.deltaMH))
            .slice(0, 25)
        : [],
    [rows],
  );
  const render = useCallback(
    () =>
      difEffectChart({
        rows: top.map((r) => ({
          id: `${r.item} (${r.focal})`,
          effect: r.deltaMH,
          lo: r.deltaLo,
          hi: r.deltaHi,
          flagged: r.flag,
        })),
        label: 'Δ_MH (negative: harder for the focal group)',
        guides: [1, 1.5],
      }),
    [top],
  );
  return (
    <section aria-labelledby="dif-h">
      <h3 id="dif-h">Differential item functioning</h3>
      <p className="muted">
        Mantel–Haenszel on correctness, matched on number correct (one purification step). Flag: ETS
        class B or C (|Δ| ≥ 1 and p &lt; 0.05). The first group is the reference. The model-based
        likelihood-ratio test runs in <code>llm-nrm dif</code>.
      </p>
      <div className="table-tools">
        <label>
          Groups CSV (model,group){' '}
          <input
            type="file"
            accept=".csv,text/csv"
            data-testid="dif-groups"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </label>
        <button
          type="button"
          className="small"
          onClick={() => {
            setMap(familyGroups(ds.llmIds));
            setSource('model families');
            setError(null);
          }}
        >
          Group by model family
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      {result && 'error' in result && <p role="alert">{result.error}</p>}
      {rows && (
        <>
          <p data-testid="dif-summary">
            {source}: {result?.names?.join(', ')}; {rows.filter((r) => r.flag).length} of{' '}
            {rows.length} item × group rows flagged.
          </p>
          <Chart render={render} name="dif-effect" heading="Largest |Δ_MH| with 95% intervals" />
          <KeyTable
            rows={rows}
            keys={MH_COLUMNS}
            idKeys={['item', 'focal']}
            name="dif"
            caption="DIF (Mantel–Haenszel)"
            searchKeys={['item', 'focal']}
            pageSize={200}
          />
        </>
      )}
    </section>
  );
}
