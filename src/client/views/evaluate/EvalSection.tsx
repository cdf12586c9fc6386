import { useId, type ReactNode } from 'react';
import type { Dataset } from '../../../core/data/types';
import type { EvalKind, EvalReply, EvalRequest } from '../../../boundary/evaluateProtocol';
import { toUiError } from '../../errors';
import { ModelChecks, type ModelPicks } from './ModelChecks';
import { RunControls } from './RunControls';
import { evalRuns, useEvalRun, useRunningEvaluation, type RunState } from './runs';

/** What a section's Run button starts: the request, and a few words on what it reads. */
export interface Planned<K extends EvalKind> {
  req: Extract<EvalRequest, { kind: K }>;
  about?: string;
}

/** A section's run state, and Run / Cancel wired to the shared runs. */
export function useSectionRun<K extends EvalKind>(
  ds: Dataset,
  kind: K,
  plan: () => Planned<K>,
  busy: boolean,
): SectionRun<K> {
  const state = useEvalRun(ds, kind);
  const running = useRunningEvaluation();
  const blocked = busy
    ? 'Wait for the running load or fit.'
    : running && running !== kind
      ? `Another evaluation (${running}) is running.`
      : null;
  const run = () => {
    let planned: Planned<K>;
    try {
      planned = plan();
    } catch (e) {
      evalRuns.fail(ds, kind, toUiError(e, 'Check the settings'));
      return;
    }
    void evalRuns.start(ds, planned.req, planned.about ?? null);
  };
  return { kind, state, blocked, run, cancel: () => evalRuns.cancel() };
}

/**
 * One evaluation: heading, what it does, its settings, Run / Cancel with
 * progress, and its results once done. `data-state` is the run's status.
 */
export interface SectionRun<K extends EvalKind> {
  kind: K;
  state: RunState<K>;
  blocked: string | null;
  run: () => void;
  cancel: () => void;
}

/** Each evaluation's heading, and where the paper reports it. */
const HEADINGS: Record<EvalKind, { title: string; paper: string }> = {
  cv: { title: 'Held-out prediction', paper: 'Table 1' },
  external: { title: 'External validity', paper: 'Table 2' },
  wrong: { title: 'Wrong answers alone', paper: 'Table 3' },
  info: { title: 'Information and distractors', paper: 'Figs 2a, 2b' },
  compress: { title: 'Compression', paper: 'Fig. 3a' },
  calibrate: { title: 'Calibration with fewer LLMs', paper: 'Fig. 3b' },
};

export function EvalSection<K extends EvalKind>({
  children,
  models,
  options,
  results,
  run,
}: {
  /** What the evaluation does, in a sentence or two. */
  children: ReactNode;
  /** The models it runs, picked by checkboxes above the other settings. */
  models?: ModelPicks;
  options: ReactNode;
  /** What a finished run shows, from its reply and the request it answered. */
  results: (
    reply: Extract<EvalReply, { kind: K }>,
    request: Extract<EvalRequest, { kind: K }>,
  ) => ReactNode;
  run: SectionRun<K>;
}) {
  const id = useId();
  const { kind } = run;
  const { title, paper } = HEADINGS[kind];
  const { status, reply, request } = run.state;
  return (
    <section
      className="panel eval-section"
      data-testid={`eval-${kind}`}
      data-state={status}
      aria-labelledby={`${id}-h`}
    >
      <h2 id={`${id}-h`}>
        {title} <span className="muted">({paper})</span>
      </h2>
      <div className="eval-about muted">{children}</div>
      <div className="eval-options">
        {models && <ModelChecks legend="Models" {...models} />}
        {options}
      </div>
      <RunControls state={run.state} onRun={run.run} onCancel={run.cancel} blocked={run.blocked} />
      {status === 'done' && reply && request && results(reply, request)}
    </section>
  );
}
