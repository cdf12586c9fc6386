/**
 * OpenCompass predictions (`predictions/<model>/<dataset>.json`): an object of
 * samples keyed "0", "1", ...
 *
 * - PPL inferencer: one `"label: <L>"` entry per option with `testing input`,
 *   `prompt` and `PPL`, the mean negative log-likelihood per token over the whole
 *   label prompt (question plus answer), and sometimes `BPB`, the same per UTF-8
 *   byte of the testing input. The log-likelihood is recovered as
 *   -BPB x (UTF-8 bytes of the testing input) when BPB is there, exactly; else as
 *   -PPL x tokens, with the token count from a `tokens`/`num_tokens` field when
 *   given and otherwise ASSUMED to be the prompt's UTF-8 bytes / 4 (a typical BPE
 *   rate; the load report says so). The question is common to every option, so
 *   only the answers' share of the count matters.
 * - CLP inferencer: `prediction` is a list of per-choice probabilities.
 *
 * `gold` is the key (a label or an index). The model is the folder, the item
 * `<dataset>/<sample key>`.
 *
 * The layout is OpenCompass's `PPLInferencerOutputHandler` (opencompass/openicl/
 * icl_inferencer/icl_base_inferencer.py): per sample `in-context examples`,
 * `origin_prompt`, one `label: <L>` object per label in the template's order,
 * `prediction` (the label whose PPL is lowest, the first on a tie) and `gold`
 * (the dataset's output column, a string or a number). Labels may be letters,
 * digits ("0", "1"; "1", "2" for Winogrande) or words, so `gold` is matched
 * against the label names before it is taken as an index.
 *
 * The key check: OpenCompass's AccEvaluator scores a sample correct when its
 * `prediction` equals `gold`; the label with the lowest PPL being the key must
 * say the same on every sample but ties (CLP: `pred_label`, the argmax of the
 * probabilities, against `gold`). The file is refused otherwise.
 */
import type { DatasetBuilder } from './builder.ts';
import { isRec, type Rec } from './harnessDoc.ts';
import { parentBenchmark } from './harnessRuns.ts';
import { ProducerTally } from './producerCheck.ts';
import { RecordSink } from './records.ts';
import { labelIndex } from './values.ts';
import { DataError } from './types.ts';

const utf8 = (s: string) => new TextEncoder().encode(s).length;
/** Assumed UTF-8 bytes per token when a PPL entry gives no token count. */
export const BYTES_PER_TOKEN = 4;

/** The key: `gold` as one of the label names first, else an index, else an option letter. */
function keyOf(gold: unknown, labels: string[]): number {
  const g = String(Array.isArray(gold) ? gold[0] : (gold ?? '')).trim();
  const k = labels.indexOf(g);
  if (k >= 0) return k;
  if (typeof gold === 'number') return gold;
  return /^\d+$/.test(g) ? Number(g) : labelIndex(g);
}

/** A field's value as the producer compares it (1 and "1" alike). */
const asText = (v: unknown) => String(Array.isArray(v) ? v[0] : v).trim();

/** Reads one predictions document. */
export function readOpenCompass(
  file: string,
  doc: Rec,
  model: string | undefined,
  builder: DatasetBuilder,
): number {
  if (!model) throw new DataError('cannot tell which model these predictions belong to', file);
  const sink = new RecordSink(file, 'opencompass', builder);
  const dataset = (file.split(/[\\/]/).pop() ?? file).replace(/(_\d+)?\.json$/i, '');
  let assumed = 0;
  let exact = 0;
  let clp = false;
  const tally = new ProducerTally('OpenCompass', 'prediction');
  const entries = Object.entries(doc);
  entries.forEach(([id, s], n) => {
    const r = n + 1;
    if (!isRec(s)) throw sink.error(r, id, 'not an object');
    const labels = Object.keys(s).filter((k) => k.startsWith('label: '));
    const item = `${dataset}/${id}`;
    const benchmark = parentBenchmark(dataset);
    if (labels.length === 0 && Array.isArray(s.prediction)) {
      clp = true;
      const values = s.prediction.map(Number);
      const key = keyOf(s.gold, []);
      // CLP: pred_label is the argmax of the probabilities, scored against gold.
      if (s.pred_label !== undefined && s.gold !== undefined && s.gold !== null)
        tally.add(values, values.length, key, Number(asText(s.pred_label) === asText(s.gold)), r);
      sink.add(
        { model, item, benchmark, key, values, question: String(s.origin_prompt ?? '') },
        r,
        'prediction',
        'prob',
      );
      return;
    }
    if (labels.length === 0) return sink.drop('samples without per-label PPL (generative)');
    const values = labels.map((l) => {
      const e = isRec(s[l]) ? (s[l] as Rec) : {};
      const input = String(e['testing input'] ?? e.prompt ?? '');
      if (typeof e.BPB === 'number') {
        exact++;
        return -e.BPB * utf8(input);
      }
      const ppl = Number(e.PPL);
      if (!Number.isFinite(ppl)) throw sink.error(r, `${l}.PPL`, 'no PPL or BPB', 'a number');
      const tokens = Number(e.tokens ?? e.num_tokens);
      if (Number.isFinite(tokens) && tokens > 0) {
        exact++;
        return -ppl * tokens;
      }
      assumed++;
      return (-ppl * utf8(String(e.prompt ?? input))) / BYTES_PER_TOKEN;
    });
    const names = labels.map((l) => l.slice('label: '.length));
    const key = keyOf(s.gold, names);
    // The producer's own choice is the lowest PPL (BPB where there is no PPL).
    if (s.prediction !== undefined && s.gold !== undefined && s.gold !== null) {
      const rank = labels.map((l) => {
        const e = isRec(s[l]) ? (s[l] as Rec) : {};
        return -Number(typeof e.PPL === 'number' ? e.PPL : e.BPB);
      });
      tally.add(rank, rank.length, key, Number(asText(s.prediction) === asText(s.gold)), r);
    }
    sink.add({ model, item, benchmark, key, values, options: names }, r, labels[0], 'logprob');
  });
  const reason = clp
    ? 'OpenCompass CLP: per-choice probabilities'
    : assumed > 0
      ? `OpenCompass PPL: log-likelihood = -PPL x tokens, tokens ASSUMED = prompt UTF-8 bytes / ${BYTES_PER_TOKEN} for ${assumed} options (no BPB or token count in the file)`
      : 'OpenCompass PPL: log-likelihood = -BPB x UTF-8 bytes of the testing input (or -PPL x the given token count)';
  tally.throwIfDisagreed(file, clp ? 'pred_label' : 'prediction');
  // Whole-prompt likelihoods say nothing about mass outside the options: no leakage.
  sink.finish(
    clp ? 'prob' : 'logprob',
    reason,
    `${exact} exact, ${assumed} assumed token counts`,
    clp,
    tally.result(),
  );
  return entries.length;
}
