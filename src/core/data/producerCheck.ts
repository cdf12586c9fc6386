/**
 * The key check against a producer's own per-record score: a reader keys an
 * item and reads per-option values; the producer (lm-evaluation-harness,
 * Inspect, HELM) scored the same record itself. Argmax = key must say
 * "correct" exactly where the producer's score does, or the reader's key (or
 * its values) is wrong. A tie among the top values may legitimately go either
 * way, so it is counted apart and never refused.
 */
import { DataError, OPTION_LABELS, type ProducerCheck } from './types.ts';

/** The first index of the largest of `v[0..n)` (as numpy's argmax breaks ties). */
export function argmaxFirst(v: ArrayLike<number>, n: number): number {
  let best = 0;
  for (let k = 1; k < n; k++) if (v[k] > v[best]) best = k;
  return best;
}

/** One record's disagreement, kept for the error. */
interface Disagreement {
  line: number;
  key: number;
  pred: number;
  score: number;
}

/** Counts, per file and metric, how the reader's correctness agrees with the producer's score. */
export class ProducerTally {
  total = 0;
  agree = 0;
  ties = 0;
  private first: Disagreement | null = null;
  private disagree = 0;

  constructor(
    readonly producer: string,
    readonly metric: string,
  ) {}

  /**
   * Compares one record: `values` the option values the metric ranks (n of
   * them), `key` the reader's key, `score` the producer's per-record score (1
   * correct, 0 wrong).
   */
  add(values: ArrayLike<number>, n: number, key: number, score: number, line: number): void {
    const pred = argmaxFirst(values, n);
    const top = values[pred];
    let atTop = 0;
    for (let k = 0; k < n; k++) if (values[k] === top) atTop++;
    this.total++;
    if ((pred === key) === score > 0) this.agree++;
    else if (atTop > 1 && values[key] === top) this.ties++;
    else {
      this.disagree++;
      this.first ??= { line, key, pred, score };
    }
  }

  /** The summary for the file's load report; null when no record carried the score. */
  result(): ProducerCheck | null {
    if (this.total === 0) return null;
    const { producer, metric, agree, total, ties } = this;
    return { producer, metric, agree, total, ties };
  }

  /** Throws a DataError naming the first disagreeing line when any record disagreed beyond a tie. */
  throwIfDisagreed(file: string, column: string): void {
    const d = this.first;
    if (!d) return;
    const said = d.score > 0 ? 'correct' : 'wrong';
    throw new DataError(
      `the keys read here disagree with ${this.producer}'s own ${this.metric} on ` +
        `${count(this.disagree)} of ${count(this.total)} records; first at line ${d.line}: ` +
        `key ${OPTION_LABELS[d.key]} with the largest value at ${OPTION_LABELS[d.pred]} makes the ` +
        `record ${d.pred === d.key ? 'correct' : 'wrong'}, but its ${this.metric} is ${d.score} ` +
        `(${said}); the file is refused rather than read with keys that may be wrong`,
      file,
      d.line,
      column,
      `keys that agree with the record's ${this.metric}`,
    );
  }
}

/** A count with thousands separators (2,040). */
export const count = (n: number) => n.toLocaleString('en-US');

/** The load-summary line for a check: "keys agree with the harness's acc on 2,040 of 2,040 records". */
export function checkNote(c: ProducerCheck): string {
  const ties =
    c.ties > 0 ? `; ${count(c.ties)} more differ only by a tie among the top values` : '';
  return `keys agree with ${c.producer}'s ${c.metric} on ${count(c.agree)} of ${count(c.total)} records${ties}`;
}
