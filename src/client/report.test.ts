/**
 * "Download report" and `llm-nrm report` give the same file: the demo loaded
 * the way each loads it (the CLI from paths, items first; the worker from the
 * app's sources, data first), the report built the way each builds it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadData } from '../cli/io';
import { reportHtml } from '../cli/report';
import { DEMO_PATHS, demoFit } from '../report/testing';
import { reportInWorker } from '../worker/report';
import { readSources } from '../worker/sources';
import { DEMO_FILES } from './useWorkbench';

describe('the report from the CLI and from the worker', () => {
  it('is the same bytes for the demo', async () => {
    const [items, wide] = DEMO_PATHS;
    const cliData = await loadData([wide], items);
    const { fit } = await demoFit(cliData);
    const date = '2026-12-03T12:00:00.000Z';
    const fromCli = await reportHtml({ ds: cliData, fit }, date);

    const sources = DEMO_FILES.map((name) => ({
      name,
      blob: new Blob([readFileSync(`public/demo/${name}`)]),
    }));
    const workerData = await readSources(sources, {}, () => {}, new AbortController().signal);
    const stages: string[] = [];
    const fromWorker = await reportInWorker(structuredClone(fit), workerData, date, (p) =>
      stages.push(p.stage),
    );
    expect(fromWorker.length).toBeGreaterThan(100_000);
    expect(fromWorker).toBe(fromCli);
    expect(stages[stages.length - 1]).toBe('done');
  }, 300_000);
});
