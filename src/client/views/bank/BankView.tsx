import { useCallback, useMemo } from 'react';
import type { Dataset } from '../../../core/data/types';
import type { FitJson } from '../../../core/fit/types';
import type { CatSource } from '../../../boundary/bankProtocol';
import { BankSection } from './BankSection';
import { CatSection } from './CatSection';
import { bankOfFit, datasetTexts } from './files';
import { ScoreSection } from './ScoreSection';
import { SelectSection } from './SelectSection';
import { useBankState } from './store';
import './bank.css';

/**
 * The Bank & CAT tab: the item bank in use (the shown fit's, or one loaded
 * from a file), new LLMs scored against it, adaptive and fixed tiny
 * benchmarks. `data-state` is that of the task started last.
 */
export function BankView({ fit, ds }: { fit: FitJson; ds: Dataset }) {
  const st = useBankState();
  const fitBank = useMemo(() => bankOfFit(fit, ds), [fit, ds]);
  const bank = st.loaded?.bank ?? fitBank;
  // Results remember what they were computed against: the loaded bank, or this fit.
  const against: object = st.loaded?.bank ?? fit;
  const texts = useMemo(() => datasetTexts(ds), [ds]);
  const label = st.loaded?.label ?? `the shown fit (${fit.model})`;
  const score = st.score?.against === against ? st.score.result : null;
  const referenceTheta = useCallback(
    (from: CatSource, id: string): number | null => {
      const pool = from === 'new' ? score?.llms : bank.calibration.llms;
      return pool?.find((l) => l.id === id)?.theta ?? null;
    },
    [score, bank],
  );
  const state = st.last ? st.tasks[st.last].status : 'idle';
  return (
    <div className="bank-view" data-testid="bank-panel" data-state={state}>
      <BankSection
        bank={bank}
        label={label}
        loaded={!!st.loaded}
        fitBank={() => bankOfFit(fit, ds)}
        task={st.tasks.bank}
      />
      <ScoreSection bank={bank} against={against} settings={fit.settings} st={st} />
      <CatSection
        bank={bank}
        against={against}
        st={st}
        calibrationLlms={ds.llmIds}
        referenceTheta={referenceTheta}
        texts={texts}
      />
      <SelectSection bank={bank} against={against} st={st} texts={texts} />
    </div>
  );
}
