import { useCallback, useId, useState } from 'react';
import { catTraceChart } from '../../../charts/catTrace';
import type { ItemBank } from '../../../core/bank/bank';
import { createCatSession, type CatSession } from '../../../core/bank/cat';
import { OPTION_LABELS, type ItemText } from '../../../core/data/types';
import type { CatSettings } from '../../../boundary/bankProtocol';
import { Chart } from '../../components/Chart';
import { toUiError } from '../../errors';
import { downloadTiny, STOP_TEXT } from './catForm';
import { parseProbs } from './files';
import { dispatchBank, runTask, type BankUiState, type InteractiveEntry } from './store';
import { TaskStatus } from './TaskStatus';

function snapshot(session: CatSession, against: object): InteractiveEntry {
  return {
    session,
    steps: [...session.trace],
    next: session.next(),
    stopped: session.stopped,
    against,
  };
}

/**
 * Adaptive testing by hand: the next item is shown (with its texts when
 * known), the user pastes the LLM's option probabilities, θ and SE update.
 * Runs on the main thread: one estimate over a few dozen items takes
 * milliseconds.
 */
export function InteractiveCat(props: {
  bank: ItemBank;
  against: object;
  st: BankUiState;
  texts: ReadonlyMap<string, ItemText | null>;
  settings: () => CatSettings;
}) {
  const { bank, against, st, texts, settings } = props;
  const [probs, setProbs] = useState('');
  const live = st.interactive?.against === against ? st.interactive : null;
  const task = st.tasks.interactive;

  const start = () => {
    startCat(bank, settings, against);
    setProbs('');
  };
  const item = live?.next ? bank.items.find((it) => it.id === live.next) : undefined;
  const submit = () => {
    if (!live || !item) return;
    void runTask(
      'interactive',
      `Could not take the answer to ${item.id}`,
      async () => {
        await live.session.answer(item.id, parseProbs(probs, item.nOptions));
        return snapshot(live.session, against);
      },
      (entry) => {
        dispatchBank({ type: 'interactive', entry });
        dispatchBank({ type: 'task', task: 'interactive', event: { type: 'done' } });
        setProbs('');
      },
    );
  };
  const render = useCallback(
    () => catTraceChart({ steps: live?.steps ?? [], start: { theta: 0, se: 1 } }),
    [live],
  );
  return (
    <div className="interactive-cat" data-section="interactive" data-state={task.status}>
      <h4>Interactive test</h4>
      <p className="muted small">
        Give the items to an LLM yourself, one at a time, and enter its option probabilities
        (weights or a one-hot answer also work). Uses the max items and SE target above.
      </p>
      <div className="row">
        <button type="button" onClick={start}>
          {live ? 'Restart interactive test' : 'Start interactive test'}
        </button>
        {live && (
          <button type="button" onClick={() => dispatchBank({ type: 'interactive', entry: null })}>
            Stop
          </button>
        )}
      </div>
      <TaskStatus name="interactive" task={task} />
      {live && (
        <>
          <p data-testid="interactive-summary">
            After <span data-testid="interactive-count">{live.steps.length}</span> items: θ ={' '}
            {live.session.theta.toFixed(3)} ± {live.session.se.toFixed(3)}
            {live.stopped && <> · finished ({STOP_TEXT[live.stopped]})</>}
          </p>
          {item && (
            <NextItem
              item={item}
              text={texts.get(item.id) ?? bankText(item)}
              probs={probs}
              onProbs={setProbs}
              onSubmit={submit}
              busy={task.status === 'running'}
            />
          )}
          {live.steps.length > 0 && (
            <>
              <Chart
                render={render}
                name="cat-interactive-trace"
                heading="Interactive test: θ (±SE) against items given"
              />
              <button
                type="button"
                onClick={() =>
                  downloadTiny(
                    bank,
                    live.steps.map((s) => s.item),
                    texts,
                    'interactive-items.csv',
                  )
                }
              >
                Export given items (CSV)
              </button>
            </>
          )}
        </>
      )}
    </div>
  );
}

/** Starts a new interactive test (on a bad setting, the task fails and says why). */
function startCat(bank: ItemBank, settings: () => CatSettings, against: object) {
  try {
    const session = createCatSession(bank, settings());
    dispatchBank({ type: 'interactive', entry: snapshot(session, against) });
    dispatchBank({ type: 'task', task: 'interactive', event: { type: 'done' } });
  } catch (e) {
    const error = toUiError(e, 'Could not start');
    dispatchBank({ type: 'task', task: 'interactive', event: { type: 'failed', error } });
  }
}

/** The item to give next, with its texts when known, and a field for the LLM's answer. */
function NextItem(p: {
  item: ItemBank['items'][number];
  text: ItemText | null;
  probs: string;
  onProbs: (probs: string) => void;
  onSubmit: () => void;
  busy: boolean;
}) {
  const { item, text } = p;
  const id = useId();
  const labels = OPTION_LABELS.slice(0, item.nOptions);
  return (
    <div className="next-item" data-testid="next-item">
      <p>
        Next item: <strong>{item.id}</strong>
        {item.benchmark && <span className="muted"> · {item.benchmark}</span>} · {item.nOptions}{' '}
        options
      </p>
      {text && (
        <>
          <p>{text.question || <em>(no question text)</em>}</p>
          <ol type="A">
            {text.options.slice(0, item.nOptions).map((o, k) => (
              <li key={k}>{o || <em>(no text)</em>}</li>
            ))}
          </ol>
        </>
      )}
      <div className="row">
        <label htmlFor={`${id}-p`}>Option probabilities ({labels.join(', ')})</label>
        <input
          id={`${id}-p`}
          className="probs-input"
          type="text"
          placeholder={labels.map(() => (1 / labels.length).toFixed(2)).join(', ')}
          value={p.probs}
          onChange={(e) => p.onProbs(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') p.onSubmit();
          }}
        />
        <button type="button" onClick={p.onSubmit} disabled={p.busy}>
          Submit answer
        </button>
      </div>
    </div>
  );
}

function bankText(it: ItemBank['items'][number]): ItemText | null {
  return it.question !== undefined || it.options !== undefined
    ? { question: it.question ?? '', options: it.options ?? [] }
    : null;
}
