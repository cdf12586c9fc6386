import { useEffect, useState } from 'react';
import { DEFAULT_SETTINGS, type FitSettings } from '../core/fit/types';
import { ConvergenceBanner } from './components/ConvergenceBanner';
import { FitList } from './components/FitList';
import { FitPanel } from './components/FitPanel';
import { LoadPanel } from './components/LoadPanel';
import { Messages } from './components/Messages';
import { PreFit } from './components/PreFit';
import { SummaryPanel } from './components/SummaryPanel';
import { ResumeOffer } from './persist/ResumeOffer';
import { SessionPanel } from './persist/SessionPanel';
import { useCheckpointSink, useSession } from './persist/useSession';
import { DEMO_FILES, useWorkbench } from './useWorkbench';
import { DemoGuide } from './guide/DemoGuide';
import { ModelSummary } from './guide/ModelSummary';
import { Results } from './views/Results';

/** `?nodemo` starts empty: no demo, and no saved session restored (a clean slate for tests). */
const startWithDemo = () => !new URLSearchParams(window.location.search).has('nodemo');
/** `?noautofit` loads without fitting (tests that look at the loaded state use it). */
const autoFit = () => !new URLSearchParams(window.location.search).has('noautofit');

export function App() {
  const [settings, setSettings] = useState<FitSettings>(DEFAULT_SETTINGS);
  // The prior field's error: while there is one, neither Fit button fits (the
  // settings still hold the last good override, which the user did not ask for).
  const [priorError, setPriorError] = useState<string | null>(null);
  const fitNow = () => {
    if (priorError === null) void wb.fit(settings);
  };
  const sink = useCheckpointSink();
  const wb = useWorkbench(DEFAULT_SETTINGS, sink.onCheckpoint, autoFit());
  const session = useSession(wb, sink, setSettings, startWithDemo());
  const { state, loadDemo } = wb;

  // The demo loads only on a first visit: when nothing saved was restored.
  useEffect(() => {
    if (session.status === 'none' && startWithDemo()) void loadDemo();
  }, [session.status, loadDemo]);

  const shown = state.fits.find((f) => f.id === state.shownFit) ?? null;
  const data = state.data;
  return (
    <div className="app" data-state={state.phase}>
      <header className="app-header">
        <h1>LLM-NRM Workbench</h1>
        <p className="muted">
          Option-level psychometrics of LLM multiple-choice benchmarks. Everything runs in this
          browser tab; nothing is uploaded.
        </p>
      </header>
      <div className="layout">
        <aside className="sidebar" aria-label="Data and fitting">
          <LoadPanel
            loading={state.loading}
            onFiles={(files, opts) => void wb.loadFiles(files, opts)}
            onDemo={() => void wb.loadDemo()}
            onCancel={wb.cancel}
          />
          {data && <SummaryPanel data={data} />}
          <FitPanel
            settings={settings}
            onSettings={setSettings}
            canFit={!!data && state.phase !== 'loading'}
            running={state.running}
            onFit={fitNow}
            onCancel={wb.cancel}
            priorError={priorError}
            onPriorError={setPriorError}
          />
          <SessionPanel session={session} />
          {state.fits.length > 0 && (
            <FitList
              fits={state.fits}
              shown={state.shownFit}
              onShow={wb.showFit}
              onRemove={wb.removeFit}
            />
          )}
        </aside>
        <main className="results">
          <ResumeOffer session={session} engine={settings.engine} showingOlder={!!shown} />
          {data && (
            <DemoGuide
              isDemo={DEMO_FILES.every((f) => data.files.includes(f))}
              J={data.dataset.J}
              I={data.dataset.I}
            />
          )}
          <Messages error={state.error} notice={state.notice} onDismiss={wb.dismiss} />
          {shown && data && !session.interrupted && (
            <ConvergenceBanner
              entry={shown}
              busy={state.phase === 'loading' || state.phase === 'fitting'}
              onContinue={() => void wb.continueFit(shown)}
            />
          )}
          {shown && data ? (
            <Results
              fit={shown.fit}
              ds={data.dataset}
              fits={state.fits}
              busy={state.phase === 'loading' || state.phase === 'fitting'}
            />
          ) : data ? (
            <PreFit
              data={data}
              running={state.running}
              model={settings.model}
              onFit={fitNow}
              priorError={priorError}
              onCancel={wb.cancel}
            />
          ) : (
            <div className="placeholder">
              {state.phase === 'loading' ? (
                <p>Reading the data… the items appear here.</p>
              ) : (
                <p>Load data (or the demo) to start.</p>
              )}
            </div>
          )}
          <ModelSummary />
        </main>
      </div>
    </div>
  );
}
