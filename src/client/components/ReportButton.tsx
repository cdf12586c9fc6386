import { useEffect, useRef, useState } from 'react';
import { downloadBlob } from '../../charts/export';
import type { FitJson } from '../../core/fit/types';
import type { ReportProgress } from '../../report/types';
import { getBridge, isAbort } from '../bridge';
import { toUiError } from '../errors';
import { slug } from '../slug';

type Status = 'idle' | 'running' | 'done' | 'error';

/**
 * "Download report": the benchmark audit report of the shown fit, built in the
 * worker (the same builder as `llm-nrm report`), saved as one HTML file.
 */
export function ReportButton({ fit, label }: { fit: FitJson; label: string }) {
  const [status, setStatus] = useState<Status>('idle');
  const [text, setText] = useState('');
  const ac = useRef<AbortController | null>(null);
  useEffect(() => () => ac.current?.abort(), []);
  const run = async () => {
    ac.current?.abort();
    const c = (ac.current = new AbortController());
    setStatus('running');
    setText('Building the report…');
    try {
      const html = await getBridge().report(
        c.signal,
        fit,
        new Date().toISOString(),
        (p: ReportProgress) => setText(`Building the report: ${p.stage} (${p.done}/${p.total})`),
      );
      downloadBlob(new Blob([html], { type: 'text/html' }), `${slug(label)}.report.html`);
      setStatus('done');
      setText(`Report saved (${Math.round(html.length / 1024)} KB).`);
    } catch (e) {
      if (isAbort(e)) {
        setStatus('idle');
        setText('Report cancelled.');
      } else {
        setStatus('error');
        setText(`The report failed: ${toUiError(e, 'Report failed').message}`);
      }
    }
  };
  return (
    <>
      <button type="button" onClick={() => void run()} disabled={status === 'running'}>
        Download report
      </button>
      <span className="muted small" role="status" data-testid="report-status" data-state={status}>
        {text}
      </span>
    </>
  );
}
