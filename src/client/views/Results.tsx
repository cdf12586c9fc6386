import { memo, useMemo, useState } from 'react';
import type { Dataset } from '../../core/data/types';
import type { FitJson } from '../../core/fit/types';
import { Tabs } from '../components/Tabs';
import { ViewGuide } from '../guide/ViewGuide';
import { useDerived } from '../useDerived';
import { indexFlags } from './bank/flags';
import type { FitEntry } from '../state';
import { BankView } from './bank/BankView';
import { DistractorsView } from './DistractorsView';
import { EvaluateView } from './evaluate/EvaluateView';
import { useCancelEvaluationsWhen } from './evaluate/runs';
import { InformationView } from './InformationView';
import { ItemsView } from './ItemsView';
import { LlmsView } from './LlmsView';
import { PsychometricsView } from './psych/PsychometricsView';

// Memoised: starting a load or fit changes `busy`, which must not re-render a
// view (an items table of hundreds of rows is a long main-thread task).
const Items = memo(ItemsView);
const Information = memo(InformationView);
const Distractors = memo(DistractorsView);
const Llms = memo(LlmsView);
const Psychometrics = memo(PsychometricsView);

const TABS = [
  { id: 'items', label: 'Items' },
  { id: 'information', label: 'Information' },
  { id: 'distractors', label: 'Distractors' },
  { id: 'llms', label: 'LLMs' },
  { id: 'psychometrics', label: 'Psychometrics' },
  { id: 'evaluate', label: 'Evaluate' },
  { id: 'bank', label: 'Bank & CAT' },
];

/** The tabbed views of one fit. The selected item and LLM survive switching tabs and fits. */
export function Results({
  fit,
  ds,
  fits = [],
  busy = false,
}: {
  fit: FitJson;
  ds: Dataset;
  /** Every completed fit, and whether a load or fit runs (for the Evaluate tab). */
  fits?: FitEntry[];
  busy?: boolean;
}) {
  const [tab, setTab] = useState('items');
  const [itemPick, setItem] = useState(0);
  const [llm, setLlm] = useState<string | null>(null);
  useCancelEvaluationsWhen(busy);
  const derived = useDerived(fit, ds);
  const ready = derived && 'value' in derived ? derived.value : null;
  const flags = useMemo(() => indexFlags(ready?.flags ?? []), [ready]);
  const item = Math.min(Math.max(0, itemPick), fit.items.length - 1);
  if (derived && 'error' in derived)
    return (
      <p role="alert" data-testid="derive-error">
        Could not compute the item statistics: {derived.error}
      </p>
    );
  if (!ready)
    return (
      <p className="muted" role="status" data-testid="deriving">
        Computing item statistics…
      </p>
    );
  const props = { fit, ds, item, onItem: setItem, derived: ready.derived };
  return (
    <Tabs tabs={TABS} active={tab} onChange={setTab} label="Views">
      <ViewGuide tab={tab} />
      {tab === 'items' && <Items {...props} flags={flags} />}
      {tab === 'information' && <Information {...props} />}
      {tab === 'distractors' && <Distractors {...props} />}
      {tab === 'llms' && <Llms {...props} llm={llm} onLlm={setLlm} />}
      {tab === 'psychometrics' && <Psychometrics fit={fit} ds={ds} />}
      {tab === 'evaluate' && <EvaluateView fit={fit} ds={ds} fits={fits} busy={busy} />}
      {tab === 'bank' && <BankView fit={fit} ds={ds} />}
    </Tabs>
  );
}
