/**
 * The same cells written in each evaluation tool's own schema (tests only):
 * lighteval 0.7 details Parquet (string columns, Python literal text), Meta
 * eval details Parquet, an Inspect `.eval` ZIP (DEFLATE or Zstandard members)
 * and `.json` log, a HELM `scenario_state.json` (separate adapter) and an
 * OpenCompass PPL predictions file with BPB.
 */
import { deflateSync } from 'fflate';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { TextFile } from './formats.ts';

/** Cells: `p[j][i]` is model j's probabilities on item i (all options > 0). */
export interface Cells {
  models: string[];
  items: { id: string; key: number; question: string; options: string[] }[];
  p: number[][][];
  task: string;
}

/** A file as `loadDataset` takes it: text, or bytes. */
export interface AnyFile {
  name: string;
  text?: string;
  bytes?: Uint8Array;
}

const L = 'ABCDEFGHIJ';

/** The reference: a wide CSV of the same cells. */
export function wideCsv(c: Cells): TextFile {
  const K = Math.max(...c.items.map((it) => it.options.length));
  const head = ['model', 'item', 'benchmark', 'key', 'n_options', ...L.slice(0, K)];
  const rows = [head.join(',')];
  c.models.forEach((m, j) =>
    c.items.forEach((it, i) =>
      rows.push([m, it.id, c.task, L[it.key], it.options.length, ...c.p[j][i]].join(',')),
    ),
  );
  return { name: 'wide.csv', text: rows.join('\n') + '\n' };
}

const pyStr = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** lighteval 0.7: every column a string; predictions as Python tuple text. */
export function lightevalParquet(c: Cells): AnyFile[] {
  return c.models.map((m, j) => {
    const col = (f: (i: number) => string) => c.items.map((_, i) => f(i));
    const columnData = [
      { name: 'example', data: col((i) => c.items[i].question), type: 'STRING' as const },
      {
        name: 'full_prompt',
        data: col((i) => `Q: ${c.items[i].question}\nA:`),
        type: 'STRING' as const,
      },
      { name: 'num_effective_few_shots', data: col(() => '0'), type: 'STRING' as const },
      { name: 'num_asked_few_shots', data: col(() => '0'), type: 'STRING' as const },
      {
        name: 'predictions',
        type: 'STRING' as const,
        data: col(
          (i) =>
            `[${c.p[j][i].map((p) => `(${Math.log(p)}, ${p === Math.max(...c.p[j][i]) ? 'True' : 'False'})`).join(', ')}]`,
        ),
      },
      {
        name: 'choices',
        data: col((i) => `[${c.items[i].options.map((o) => pyStr(` ${o}`)).join(', ')}]`),
        type: 'STRING' as const,
      },
      { name: 'gold', data: col((i) => `[${c.items[i].key}]`), type: 'STRING' as const },
      { name: 'gold_index', data: col((i) => String(c.items[i].key)), type: 'STRING' as const },
      { name: 'metrics', data: col(() => "{'acc': 1.0}"), type: 'STRING' as const },
      { name: 'specifics', data: col(() => '{}'), type: 'STRING' as const },
    ];
    const buf = parquetWriteBuffer({ columnData });
    return {
      name: `${m}/details_lighteval|${c.task}|0_2024-05-06T07-08-09.123456.parquet`,
      bytes: new Uint8Array(buf),
    };
  });
}

/** Meta eval details: choice list, correct responses, raw and normalised NLLs (nested as JSON). */
export function metaParquet(c: Cells): AnyFile[] {
  return c.models.map((m, j) => {
    const choiceList = c.items.map((it) => Object.fromEntries(it.options.map((o, k) => [L[k], o])));
    const columnData = [
      { name: 'task_type', data: c.items.map(() => 'Choice'), type: 'STRING' as const },
      { name: 'task_name', data: c.items.map(() => c.task), type: 'STRING' as const },
      { name: 'subtask_name', data: c.items.map(() => `${c.task}_all`), type: 'STRING' as const },
      { name: 'input_question', data: c.items.map((it) => it.question), type: 'STRING' as const },
      { name: 'input_choice_list', data: choiceList, type: 'JSON' as const },
      {
        name: 'input_correct_responses',
        data: c.items.map((it) => [`Answer: ${L[it.key]}`]),
        type: 'JSON' as const,
      },
      { name: 'input_question_hash', data: c.items.map((it) => it.id), type: 'STRING' as const },
      {
        name: 'output_choice_negative_log_likelihoods',
        type: 'JSON' as const,
        data: c.items.map((it, i) => ({
          char_normalized: c.p[j][i].map((p, k) => -Math.log(p) / it.options[k].length),
          raw: c.p[j][i].map((p) => -Math.log(p)),
        })),
      },
      {
        name: 'is_correct',
        data: c.items.map((it, i) => c.p[j][i].indexOf(Math.max(...c.p[j][i])) === it.key),
      },
    ];
    return {
      name: `${m}/Details_${c.task}_2024.parquet`,
      bytes: new Uint8Array(parquetWriteBuffer({ columnData })),
    };
  });
}

/** One Inspect sample, log-probs of the answer letter as the model's first output token. */
function inspectSample(c: Cells, j: number, i: number): Record<string, unknown> {
  const it = c.items[i];
  const top = c.p[j][i]
    .map((p, k) => ({ token: ` ${L[k]}`, logprob: Math.log(p), bytes: null }))
    .sort((a, b) => b.logprob - a.logprob);
  return {
    id: i + 1,
    epoch: 1,
    input: it.question,
    choices: it.options,
    target: L[it.key],
    messages: [],
    output: {
      model: c.models[j],
      choices: [
        {
          message: { role: 'assistant', content: `ANSWER:${top[0].token}`, source: 'generate' },
          stop_reason: 'stop',
          logprobs: {
            content: [
              { token: 'ANSWER', logprob: -0.001, bytes: null, top_logprobs: [] },
              { token: ':', logprob: -0.001, bytes: null, top_logprobs: [] },
              { ...top[0], top_logprobs: top },
            ],
          },
        },
      ],
    },
    scores: {
      choice: { value: top[0].token.trim() === L[it.key] ? 'C' : 'I', answer: top[0].token.trim() },
    },
    metadata: {},
  };
}

function inspectHeader(c: Cells, j: number): Record<string, unknown> {
  return {
    version: 2,
    status: 'success',
    eval: {
      task: `inspect_evals/${c.task}`,
      task_id: 't1',
      run_id: 'r1',
      created: '2026-04-01T10:00:00+00:00',
      model: c.models[j],
      dataset: { name: c.task, samples: c.items.length },
    },
    plan: { name: 'plan', steps: [{ solver: 'multiple_choice', params: {} }] },
    results: { total_samples: c.items.length, completed_samples: c.items.length, scores: [] },
    stats: { started_at: '', completed_at: '' },
  };
}

/** Inspect `.json` logs, one per model. */
export function inspectJson(c: Cells): AnyFile[] {
  return c.models.map((_, j) => ({
    name: `logs/2026-04-01T10-00-00_${c.task}_${j}.json`,
    text: JSON.stringify(
      { ...inspectHeader(c, j), samples: c.items.map((_, i) => inspectSample(c, j, i)) },
      null,
      2,
    ),
  }));
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let x = n;
  for (let k = 0; k < 8; k++) x = x & 1 ? 0xedb88320 ^ (x >>> 1) : x >>> 1;
  return x >>> 0;
});
const crc32 = (b: Uint8Array) => {
  let x = 0xffffffff;
  for (const v of b) x = CRC[(x ^ v) & 0xff] ^ (x >>> 8);
  return (x ^ 0xffffffff) >>> 0;
};

/** A Zstandard frame of raw (stored) blocks: valid zstd that any decoder reads. */
export function zstdStored(data: Uint8Array): Uint8Array {
  const out: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0xa0];
  for (let s = 0; s < 4; s++) out.push((data.length >>> (8 * s)) & 0xff);
  const MAX = 1 << 17;
  for (let at = 0; at < data.length || at === 0; at += MAX) {
    const part = data.subarray(at, at + MAX);
    const last = at + MAX >= data.length ? 1 : 0;
    const h = last | (part.length << 3);
    out.push(h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff, ...part);
    if (data.length === 0) break;
  }
  return Uint8Array.from(out);
}

/** A ZIP of the given members, compressed with DEFLATE (8) or Zstandard (93). */
export function zipOf(members: [string, string][], method: 8 | 93): Uint8Array {
  const enc = new TextEncoder();
  const parts: number[] = [];
  const central: number[] = [];
  const u16 = (a: number[], v: number) => a.push(v & 0xff, (v >>> 8) & 0xff);
  const u32 = (a: number[], v: number) =>
    a.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  for (const [name, text] of members) {
    const raw = enc.encode(text);
    const data = method === 8 ? deflateSync(raw) : zstdStored(raw);
    const nm = enc.encode(name);
    const offset = parts.length;
    const fields = (a: number[]) => {
      u16(a, method === 93 ? 63 : 20);
      u16(a, 0);
      u16(a, method);
      u16(a, 0);
      u16(a, 0x21);
      u32(a, crc32(raw));
      u32(a, data.length);
      u32(a, raw.length);
      u16(a, nm.length);
      u16(a, 0);
    };
    u32(parts, 0x04034b50);
    fields(parts);
    parts.push(...nm, ...data);
    u32(central, 0x02014b50);
    u16(central, 20);
    fields(central);
    u16(central, 0);
    u16(central, 0);
    u16(central, 0);
    u32(central, 0);
    u32(central, offset);
    central.push(...nm);
  }
  const end: number[] = [];
  u32(end, 0x06054b50);
  u16(end, 0);
  u16(end, 0);
  u16(end, members.length);
  u16(end, members.length);
  u32(end, central.length);
  u32(end, parts.length);
  u16(end, 0);
  return Uint8Array.from([...parts, ...central, ...end]);
}

/** Inspect `.eval` logs, one per model. */
export function inspectEval(c: Cells, method: 8 | 93): AnyFile[] {
  return c.models.map((_, j) => {
    const members: [string, string][] = [
      [
        '_journal/start.json',
        JSON.stringify({ version: 2, eval: inspectHeader(c, j).eval, plan: {} }),
      ],
      ...c.items.map((_, i): [string, string] => [
        `samples/${i + 1}_epoch_1.json`,
        JSON.stringify(inspectSample(c, j, i)),
      ]),
      ['reductions.json', '[]'],
      ['summaries.json', '[]'],
      ['header.json', JSON.stringify(inspectHeader(c, j))],
    ];
    return { name: `logs/2026-04-01T10-00-00_${c.task}_${j}.eval`, bytes: zipOf(members, method) };
  });
}

/** HELM `scenario_state.json`, separate adapter: one request per option, prompt echoed. */
export function helmState(c: Cells): AnyFile[] {
  return c.models.map((m, j) => {
    const request_states = c.items.flatMap((it, i) =>
      it.options.map((o, k) => {
        const prompt = `Question: ${it.question}\nAnswer:`;
        // The echoed prompt, then the option's words (the first carries its log-probability).
        const words = o.split(' ');
        const tokens = [
          { text: prompt, logprob: -7.25, top_logprobs: {} },
          ...words.map((w, n) => ({
            text: ` ${w}`,
            logprob: n === 0 ? Math.log(c.p[j][i][k]) : 0,
            top_logprobs: {},
          })),
        ];
        const lp = tokens.reduce((t, x) => t + x.logprob, 0);
        return {
          instance: {
            input: { text: it.question },
            references: it.options.map((t, r) => ({
              output: { text: t },
              tags: r === it.key ? ['correct'] : [],
            })),
            split: 'test',
            id: it.id,
          },
          reference_index: k,
          train_trial_index: 0,
          request_mode: 'original',
          request: { model: m, prompt: `${prompt} ${o}`, echo_prompt: true, max_tokens: 0 },
          result: {
            success: true,
            completions: [{ text: `${prompt} ${o}`, logprob: lp, tokens }],
            cached: true,
          },
          num_train_instances: 0,
          prompt_truncated: false,
        };
      }),
    );
    const doc = {
      adapter_spec: {
        method: 'multiple_choice_separate_original',
        model: m,
        model_deployment: m,
        max_tokens: 0,
      },
      request_states,
    };
    return {
      name: `benchmark_output/runs/v1/${c.task}:model=${m.replace('/', '_')}/scenario_state.json`,
      text: JSON.stringify(doc, null, 2),
    };
  });
}

/** OpenCompass PPL predictions with BPB (exact log-likelihoods). */
export function openCompassPpl(c: Cells): AnyFile[] {
  const bytes = (s: string) => new TextEncoder().encode(s).length;
  return c.models.map((m, j) => {
    const doc: Record<string, unknown> = {};
    c.items.forEach((it, i) => {
      const s: Record<string, unknown> = {};
      const ppl = it.options.map((o, k) => {
        const input = `${it.question}\nAnswer: ${o}`;
        const ll = -3 + Math.log(c.p[j][i][k]); // the question's share is common to every option
        const PPL = -ll / (bytes(input) / 4);
        s[`label: ${L[k]}`] = {
          'testing input': input,
          prompt: input,
          PPL,
          BPB: -ll / bytes(input),
        };
        return PPL;
      });
      // As OpenCompass's PPLInferencer writes it: the label with the lowest PPL, the first on a tie.
      s.prediction = L[ppl.indexOf(Math.min(...ppl))];
      s.gold = L[it.key];
      doc[String(i)] = s;
    });
    return {
      name: `outputs/default/20240101_000000/predictions/${m}/${c.task}.json`,
      text: JSON.stringify(doc, null, 4),
    };
  });
}
