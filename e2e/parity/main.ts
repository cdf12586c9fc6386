import { runParity } from './parity';

/**
 * Test page (webgpu-parity.html): runs the WebGPU engine against the fused CPU
 * engine and writes the report as JSON into #result, with data-state="done",
 * or the error message with data-state="error".
 */
const out = document.getElementById('result')!;

runParity().then(
  (report) => {
    out.textContent = JSON.stringify(report, null, 2);
    out.dataset.state = 'done';
  },
  (e: unknown) => {
    out.textContent = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    out.dataset.state = 'error';
  },
);
