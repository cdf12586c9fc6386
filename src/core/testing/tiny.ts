/**
 * A tiny hand-made data set and fit for unit tests: 3 LLMs, 3
 * items (two with 3 options, one with 2), one missing cell.
 */
import type { Dataset } from '../data/types';
import { DEFAULT_SETTINGS, type FitJson } from '../fit/types';

export function tinyDataset(): Dataset {
  const J = 3;
  const I = 3;
  const Kmax = 3;
  const obs = new Float32Array(J * I * Kmax);
  const observed = new Uint8Array(J * I).fill(1);
  const put = (j: number, i: number, p: number[]) => obs.set(p, (j * I + i) * Kmax);
  // Item 0 (key A), item 1 (key C), item 2 (key B, 2 options).
  put(0, 0, [0.9, 0.05, 0.05]);
  put(0, 1, [0.1, 0.1, 0.8]);
  put(0, 2, [0.2, 0.8]);
  put(1, 0, [0.2, 0.7, 0.1]);
  put(1, 1, [0.3, 0.3, 0.4]);
  put(1, 2, [0.6, 0.4]);
  put(2, 0, [0.1, 0.3, 0.6]);
  observed[2 * I + 1] = 0; // LLM 2 did not answer item 1
  put(2, 2, [0.5, 0.5]);
  return {
    J,
    I,
    Kmax,
    llmIds: ['big', 'mid', 'small'],
    itemIds: ['q1', 'q2', 'q3'],
    benchmarks: ['alpha', 'alpha', 'beta'],
    nOptions: Uint8Array.from([3, 3, 2]),
    key: Uint8Array.from([0, 2, 1]),
    obs,
    observed,
    leakage: new Float32Array(J * I),
    itemTexts: [{ question: 'Q1?', options: ['yes', 'no', 'maybe'] }, null, null],
    sources: [{ file: 'tiny.csv', format: 'wide', valueKind: 'prob', rows: 8 }],
    warnings: [],
  };
}

/** A nominal fit of `tinyDataset` with made-up but valid parameters. */
export function tinyFit(): FitJson {
  const llm = (id: string, theta: number, accuracy: number) => ({
    id,
    theta,
    thetaSE: 0.3,
    s: 1.1,
    delta: [0.1, 0, -0.1],
    rho: [0.2, -0.1, -0.1],
    accuracy,
    nObserved: 3,
  });
  return {
    schema: 'llm-nrm-fit/1',
    model: 'llmnrm',
    mode: 'default',
    optimizer: 'fast',
    objective: 10,
    crossEntropy: 9,
    penalty: 0.5,
    prior: 1,
    meanCrossEntropy: 9 / 8,
    nCells: 8,
    steps: 40,
    passes: 45,
    converged: true,
    seconds: 0.1,
    engine: 'fused',
    engineReason: 'test',
    settings: DEFAULT_SETTINGS,
    Kmax: 3,
    llms: [llm('big', 1.2, 1), llm('mid', 0, 1 / 3), llm('small', -1.2, 0)],
    items: [
      {
        id: 'q1',
        benchmark: 'alpha',
        key: 'A',
        nOptions: 3,
        a: [1.5, 0.5, -2],
        c: [0.5, 0, -0.5],
        b: -0.3,
      },
      {
        id: 'q2',
        benchmark: 'alpha',
        key: 'C',
        nOptions: 3,
        a: [-1, 0, 1],
        c: [0, 0.2, -0.2],
        b: 0.4,
      },
      {
        id: 'q3',
        benchmark: 'beta',
        key: 'B',
        nOptions: 2,
        a: [-0.8, 0.8],
        c: [0.1, -0.1],
        b: 0.1,
      },
    ],
    global: { w0: -1, kappa: 0.8 },
    notes: [],
    trace: [{ step: 1, passes: 1, objective: 10, crossEntropy: 9, seconds: 0.01 }],
  };
}

/** A 2PL fit of `tinyDataset`. */
export function tinyBinaryFit(): FitJson {
  const f = tinyFit();
  return {
    ...f,
    model: '2pl',
    llms: f.llms.map((l) => ({ ...l, s: 1, delta: [], rho: [] })),
    items: f.items.map((it, i) => ({
      id: it.id,
      benchmark: it.benchmark,
      key: it.key,
      nOptions: it.nOptions,
      slope: 1 + i * 0.5,
      d: 0.2 - i * 0.3,
      g: 0,
      u: 1,
      b: -(0.2 - i * 0.3) / (1 + i * 0.5),
    })),
    global: { w0: 0, kappa: 0 },
  };
}
