/**
 * Keeps the workbench's data and fits in IndexedDB and brings them back on the
 * next visit; offers to resume a fit that a reload or crash interrupted.
 * Every write is fire-and-forget: the UI never waits on storage.
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
} from 'react';
import type { FitSettings } from '../../core/fit/types';
import type { CheckpointPhase, CheckpointSaved } from '../../boundary/checkpoint';
import type { LoadedData } from '../state';
import type { Workbench } from '../useWorkbench';
import type { SavedCheckpoint } from '../../boundary/persist/records';
import { dropCheckpoint } from '../../boundary/persist/writes';
import { useLatest } from '../useLatest';
import { StoredFits } from './storedFits';
import { addFit, clearSession, deleteFit, loadCheckpoint, loadSession, saveData } from './store';

/**
 * checking: reading the store; restored: a saved session is shown; none: nothing
 * was saved (a first visit); saved: this visit's work is being kept; cleared: the
 * user emptied the store; unavailable: IndexedDB cannot be used here.
 */
export type SessionStatus = 'checking' | 'restored' | 'none' | 'saved' | 'cleared' | 'unavailable';

export interface SessionView {
  status: SessionStatus;
  /** When the restored session was last written. */
  restoredFrom: number | null;
  /** An interrupted fit's checkpoint, offered for resuming while no fit runs. */
  interrupted: SavedCheckpoint | null;
  /** The step of the running fit's last stored checkpoint. */
  checkpointStep: number | null;
  /** That checkpoint's phase ('start': the fit is recorded, with no iterate yet). */
  checkpointPhase: CheckpointPhase;
  /** Why the session could not be saved, if it could not. */
  problem: string | null;
  /** Writes to the store not yet finished (a reload before they finish may lose them). */
  pending: number;
  clear(): void;
  /** Resumes the interrupted fit with its settings, on `engine` (the Fit panel's). */
  resume(engine: FitSettings['engine']): void;
  discard(): void;
}

/**
 * Where the workbench reports the running fit's checkpoints, which the worker
 * stores itself (so no vector is cloned here), and the step of the last one stored.
 */
export function useCheckpointSink() {
  const [step, setStep] = useState<number | null>(null);
  const [phase, setPhase] = useState<CheckpointPhase>('fit');
  const [problem, setProblem] = useState<string | null>(null);
  const onCheckpoint = useCallback((c: CheckpointSaved) => {
    if (c.error) setProblem(`Could not save a checkpoint (${c.error}).`);
    else {
      setStep(c.step);
      setPhase(c.phase ?? 'fit');
    }
  }, []);
  return { onCheckpoint, step, phase, setStep, problem };
}

export function useSession(
  wb: Workbench,
  sink: ReturnType<typeof useCheckpointSink>,
  onSettings: (s: FitSettings) => void,
  /** False to start empty whatever is saved (the store is overwritten by the next load). */
  restore = true,
): SessionView {
  const [status, setStatus] = useState<SessionStatus>('checking');
  const [restoredFrom, setRestoredFrom] = useState<number | null>(null);
  const [interrupted, setInterrupted] = useState<SavedCheckpoint | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // What the store holds: the data object, and the fits by id (storedFits.ts).
  const storedData = useRef<LoadedData | null>(null);
  const [storedFits] = useState(() => new StoredFits({ add: addFit, remove: deleteFit }));
  const wbRef = useLatest(wb);
  const { state } = wb;
  const { pending, write } = usePendingWrites(setStatus, setProblem);

  // Once per page: restore what was saved, unless the user already loaded something.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!restore) {
      // Not a setState in the effect body: resolve first, like a read of the store.
      void Promise.resolve().then(() => setStatus('none'));
      return;
    }
    loadSession().then(
      (session) => {
        if (!session || wbRef.current.state.data) return setStatus('none');
        storedData.current = session.data;
        storedFits.restoring(session.fits.map((f) => f.key));
        showRestored(wbRef.current, session, onSettings);
        setInterrupted(session.checkpoint);
        setRestoredFrom(session.savedAt);
        setStatus('restored');
      },
      (e: unknown) => {
        setProblem(`Your work cannot be kept across reloads here (${String(e)}).`);
        setStatus('unavailable');
      },
    );
  }, [onSettings, restore, storedFits, wbRef]);

  // Mirror the data and the list of fits into the store.
  useEffect(() => {
    if (status === 'checking' || status === 'unavailable') return;
    if (state.data && state.data !== storedData.current) {
      storedData.current = state.data;
      storedFits.clear();
      write(saveData(state.data));
    }
    storedFits.sync(state.fits).forEach(write);
  }, [state.data, state.fits, status, write, storedFits]);

  useCheckpointAtFitEnd(state, status, sink.setStep, setInterrupted, setProblem);

  const clear = useCallback(() => {
    wbRef.current.cancel();
    clearSession().then(
      () => {
        storedData.current = null;
        storedFits.clear();
        setInterrupted(null);
        setRestoredFrom(null);
        setStatus('cleared');
        wbRef.current.reset('Saved session cleared: nothing of this session is kept any more.');
      },
      (e: unknown) => setProblem(`Could not clear the saved session (${String(e)}).`),
    );
  }, [storedFits, wbRef]);

  const resume = useCallback(
    (engine: FitSettings['engine']) => {
      if (!interrupted) return;
      setInterrupted(null);
      resumeFit(wbRef.current, interrupted, engine);
    },
    [interrupted, wbRef],
  );

  const discard = useCallback(() => {
    setInterrupted(null);
    write(dropCheckpoint());
  }, [write]);

  return {
    status,
    restoredFrom,
    interrupted: state.running ? null : interrupted,
    checkpointStep: state.running ? sink.step : null,
    checkpointPhase: sink.phase,
    problem: problem ?? sink.problem,
    pending,
    clear,
    resume,
    discard,
  };
}

/**
 * Counts the store writes not yet finished; `write(p)` counts one in until it
 * settles, marks the session saved when it succeeds and says why when it fails.
 */
function usePendingWrites(
  setStatus: Dispatch<SetStateAction<SessionStatus>>,
  setProblem: (p: string) => void,
) {
  const [pending, setPending] = useState(0);
  const write = useCallback(
    (p: Promise<unknown>) => {
      setPending((n) => n + 1);
      p.then(
        () => setStatus((s) => (s === 'none' || s === 'cleared' ? 'saved' : s)),
        (e: unknown) => setProblem(`Could not save this session (${String(e)}).`),
      ).finally(() => setPending((n) => n - 1));
    },
    [setStatus, setProblem],
  );
  return { pending, write };
}

/** Shows a session read back from the store, and the interrupted fit's settings in the form. */
function showRestored(
  wb: Workbench,
  session: NonNullable<Awaited<ReturnType<typeof loadSession>>>,
  onSettings: (s: FitSettings) => void,
) {
  void wb.restore(
    session.data,
    session.fits.map((f) => f.saved),
  );
  // The form shows the interrupted fit's settings (a continuation's are its own, not the form's).
  const cp = session.checkpoint;
  if (cp && cp.replaces === undefined) onSettings(cp.settings);
}

/**
 * A fit that ends drops its checkpoint, except: one that fails keeps it, to
 * resume (offered as the interrupted fit), and so does a cancelled
 * "Continue fitting", which runs until converged or cancelled: its steps are
 * kept and offered, rather than lost with the cancel.
 */
function useCheckpointAtFitEnd(
  state: Workbench['state'],
  status: SessionStatus,
  setStep: (step: number | null) => void,
  setInterrupted: (cp: SavedCheckpoint | null) => void,
  setProblem: (p: string) => void,
) {
  const wasRunning = useRef(false);
  const idAtStart = useRef(0);
  useEffect(() => {
    const running = state.running !== null;
    if (running === wasRunning.current) return;
    wasRunning.current = running;
    if (running) idAtStart.current = state.nextId;
    if (running || status === 'unavailable') return;
    const failed = state.phase === 'error';
    // No fit was added: it failed or was cancelled.
    const unfinished = state.nextId === idAtStart.current;
    const keep = (cp: SavedCheckpoint | null) =>
      failed || (cp?.replaces !== undefined && cp.x.length > 0);
    const end = unfinished
      ? loadCheckpoint().then((cp) => (keep(cp) ? cp : dropCheckpoint().then(() => null)))
      : dropCheckpoint().then(() => null);
    end.then(
      (cp) => {
        setInterrupted(cp);
        setStep(null);
      },
      (e: unknown) => setProblem(`Could not read or clear the checkpoint (${String(e)}).`),
    );
  }, [state.running, state.phase, state.nextId, status, setStep, setInterrupted, setProblem]);
}

/** Resumes an interrupted fit with its settings on `engine`, from its last iterate if it has one. */
function resumeFit(wb: Workbench, cp: SavedCheckpoint, engine: FitSettings['engine']) {
  const settings = { ...cp.settings, engine };
  // A 'start' record has no iterate: the fit runs again from the start, with its settings.
  if (cp.phase === 'start' || cp.x.length === 0) void wb.fit(settings);
  else
    void wb.fit(settings, {
      x: cp.x,
      step: cp.step,
      ...(cp.replaces !== undefined && { replaces: cp.replaces }),
    });
}
