/**
 * HELM run folders: `<run>/scenario_state.json`, `request_states[]` with the
 * `instance` (`id`, `input.text`, `references[]` tagged `correct`), the
 * `request` and its `result.completions[]`.
 *
 * - Separate multiple-choice adapters (`multiple_choice_separate_*`): one request
 *   per option (`reference_index`). `completions[0].logprob` sums every returned
 *   token, the echoed prompt included, so the option's log-likelihood is the sum
 *   over the trailing tokens that spell the reference text, as HELM's own metric
 *   does. Calibration requests (`request_mode: "calibration"`) are dropped.
 * - The joint adapter (`multiple_choice_joint`): one request per instance; option
 *   k's value is the first token's `top_logprobs` entry for letter k (via
 *   `output_mapping`), missing when not listed.
 *
 * The key check (joint adapter): HELM's `exact_match` scores the letter the
 * model wrote (`completions[0].text`, mapped through `output_mapping`) against
 * the reference tagged `correct`; argmax = key must agree with that on every
 * instance but ties, or the file is refused. HELM from v0.5.0 (February 2024) keeps no
 * `top_logprobs` per token, so a joint run from it has no per-option values and
 * is refused as such.
 *
 * Only the first train trial is read. The model is `adapter_spec.model`; the
 * benchmark is the run name up to ':' (mmlu:subject=anatomy,... → mmlu) and the
 * subtask its `subject=` value.
 */
import type { DatasetBuilder } from './builder.ts';
import { isRec, type Rec } from './harnessDoc.ts';
import { ProducerTally } from './producerCheck.ts';
import { RecordSink } from './records.ts';
import { DataError } from './types.ts';

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Benchmark and subtask from the run folder name. */
function runNames(file: string): { benchmark: string; subtask?: string } {
  const parts = file.split(/[\\/]/);
  const run = parts.length >= 2 ? parts[parts.length - 2] : 'helm';
  const subject = /(?:subject|subset|task)=([^,]+)/.exec(run)?.[1];
  return { benchmark: run.split(':')[0], subtask: subject };
}

/** Sum of the trailing token log-probabilities that spell `text` (stripped). */
function referenceLogprob(completion: Rec, text: string): number {
  const tokens = arr(completion.tokens).filter(isRec);
  const want = text.trim();
  let got = '';
  let sum = 0;
  for (let t = tokens.length - 1; t >= 0; t--) {
    got = String(tokens[t].text ?? '') + got;
    sum += Number(tokens[t].logprob ?? NaN);
    if (got.trim().length >= want.length) return got.trim() === want ? sum : NaN;
  }
  return NaN;
}

/** Reads one `scenario_state.json` document. */
export function readHelm(file: string, doc: Rec, builder: DatasetBuilder): number {
  const sink = new RecordSink(file, 'helm', builder);
  const spec = isRec(doc.adapter_spec) ? doc.adapter_spec : {};
  const model = String(spec.model ?? spec.model_deployment ?? '');
  if (!model) throw new DataError('no adapter_spec.model', file, undefined, 'adapter_spec.model');
  const method = String(spec.method ?? '');
  const joint = method === 'multiple_choice_joint';
  if (!joint && !method.startsWith('multiple_choice_separate'))
    throw new DataError(
      `adapter method '${method}' has no per-option values`,
      file,
      undefined,
      'adapter_spec.method',
      'multiple_choice_joint or multiple_choice_separate_*',
    );
  const { benchmark, subtask } = runNames(file);
  const states = arr(doc.request_states);
  const byInstance = new Map<
    string,
    { inst: Rec; values: number[]; first: number; said?: string; mapping?: Rec }
  >();
  states.forEach((st, n) => {
    const r = n + 1;
    if (!isRec(st) || !isRec(st.instance)) throw sink.error(r, 'request_states', 'no instance');
    if (Number(st.train_trial_index ?? 0) !== 0) return sink.drop('requests of later train trials');
    if (st.request_mode === 'calibration') return sink.drop('calibration requests');
    const inst = st.instance;
    const refs = arr(inst.references).filter(isRec);
    const id = String(inst.id ?? r);
    const entry = byInstance.get(id) ?? { inst, values: refs.map(() => NaN), first: r };
    byInstance.set(id, entry);
    const comp = isRec(st.result) ? arr(st.result.completions).find(isRec) : undefined;
    if (!comp) throw sink.error(r, 'result.completions', 'no completion');
    if (joint) {
      const mapping = isRec(st.output_mapping) ? st.output_mapping : {};
      const top = isRec(arr(comp.tokens)[0]) ? (arr(comp.tokens)[0] as Rec).top_logprobs : null;
      if (!isRec(top))
        throw sink.error(
          r,
          'result.completions[0].tokens[0].top_logprobs',
          'no top_logprobs: this HELM output keeps only the log-probability of the letter the ' +
            'model wrote, so there is no value per option (HELM writes no top_logprobs from v0.5.0, February 2024)',
          'a joint-adapter run with top_logprobs per token, or a multiple_choice_separate_* run',
        );
      entry.said = String(comp.text ?? '').trim();
      entry.mapping = mapping;
      const letters = Object.keys(mapping);
      refs.forEach((ref, k) => {
        const text = isRec(ref.output) ? String(ref.output.text ?? '') : '';
        const letter = letters.find((l) => String(mapping[l]) === text) ?? letters[k];
        let p = 0;
        for (const [tok, lp] of Object.entries(top))
          if (tok.trim() === letter) p += Math.exp(Number(lp));
        entry.values[k] = p > 0 ? Math.log(p) : NaN;
      });
    } else {
      const k = Number(st.reference_index);
      const ref = refs[k];
      if (!ref) throw sink.error(r, 'reference_index', `no reference ${st.reference_index}`);
      const text = isRec(ref.output) ? String(ref.output.text ?? '') : '';
      const lp = referenceLogprob(comp, text);
      if (Number.isNaN(lp))
        throw sink.error(
          r,
          'result.completions[0].tokens',
          'the last tokens do not spell the reference text',
        );
      entry.values[k] = lp;
    }
  });
  const tally = new ProducerTally('HELM', 'exact_match');
  for (const [id, { inst, values, first, said, mapping }] of byInstance) {
    const refs = arr(inst.references).filter(isRec);
    const key = refs.findIndex((ref) => arr(ref.tags).includes('correct'));
    const input = isRec(inst.input) ? String(inst.input.text ?? '') : '';
    const options = refs.map((ref) => (isRec(ref.output) ? String(ref.output.text ?? '') : ''));
    if (said !== undefined && mapping && key >= 0) {
      const exact = mapping[said] !== undefined && String(mapping[said]) === options[key];
      const ranked = values.map((v) => (Number.isNaN(v) ? -Infinity : v));
      tally.add(ranked, values.length, key, exact ? 1 : 0, first);
    }
    sink.add(
      {
        model,
        item: `${benchmark}/${id}`,
        benchmark,
        subtask,
        key,
        values,
        question: input,
        options,
      },
      first,
      'references',
      'logprob',
    );
  }
  tally.throwIfDisagreed(file, 'result.completions[0].text');
  sink.finish(
    'logprob',
    joint
      ? 'HELM joint adapter: top_logprobs of each answer letter, softmax'
      : 'HELM separate adapter: log-probabilities of the reference tokens, softmax',
    `${method}, ${byInstance.size} instances`,
    true,
    tally.result(),
  );
  return states.length;
}
