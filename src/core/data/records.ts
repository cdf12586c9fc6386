/**
 * The common end of the whole-document readers (Parquet, Inspect, HELM,
 * OpenCompass): each turns its records into `OptionRecord`s, and the sink
 * checks them, stores them in a `RowBlock` and reports what it took and what it
 * dropped. Errors name the file, the record (1-based) and the field.
 */
import { RowBlock } from './block.ts';
import type { DatasetBuilder } from './builder.ts';
import { checkNote } from './producerCheck.ts';
import {
  DataError,
  MAX_OPTIONS,
  type ProducerCheck,
  type SourceInfo,
  type ValueKind,
} from './types.ts';

/** One model's values for one item. */
export interface OptionRecord {
  model: string;
  item: string;
  benchmark: string;
  subtask?: string;
  /** 0-based index of the keyed option. */
  key: number;
  /** One value per option (log-likelihoods or probabilities); NaN for a missing option. */
  values: number[];
  question?: string;
  options?: string[];
}

/** Collects one file's records. */
export class RecordSink {
  rows = 0;
  private readonly block: RowBlock;
  private readonly vals = new Float64Array(MAX_OPTIONS);
  private readonly dropped = new Map<string, number>();

  constructor(
    readonly file: string,
    readonly format: SourceInfo['format'],
    private readonly builder: DatasetBuilder,
  ) {
    this.block = new RowBlock(file, format, MAX_OPTIONS);
  }

  /** An error at a record's field. */
  error(record: number, field: string, message: string, expected?: string): DataError {
    return new DataError(`record ${record}: ${message}`, this.file, undefined, field, expected);
  }

  /** Counts a record left out, by reason. */
  drop(reason: string): void {
    this.dropped.set(reason, (this.dropped.get(reason) ?? 0) + 1);
  }

  /** Checks and stores one record; `field` names where its values came from. */
  add(r: OptionRecord, record: number, field: string, kind: ValueKind): void {
    const n = r.values.length;
    if (n < 2 || n > MAX_OPTIONS)
      throw this.error(record, field, `${n} options; n_options must be in 2..${MAX_OPTIONS}`);
    if (!Number.isInteger(r.key) || r.key < 0 || r.key >= n)
      throw this.error(record, field, `the key (${r.key}) is not one of the ${n} options`);
    let seen = 0;
    for (let k = 0; k < n; k++) {
      const v = r.values[k];
      if (Number.isNaN(v)) continue;
      seen++;
      if (!Number.isFinite(v) || (kind === 'logprob' && v > 1e-9) || (kind === 'prob' && v < 0))
        throw this.error(
          record,
          field,
          `option ${k} has the value ${v}`,
          kind === 'logprob' ? 'log-likelihoods <= 0' : 'probabilities >= 0',
        );
      this.vals[k] = kind === 'logprob' ? Math.min(v, 0) : v;
    }
    if (seen === 0) throw this.error(record, field, 'no option has a value');
    for (let k = 0; k < n; k++) if (Number.isNaN(r.values[k])) this.vals[k] = NaN;
    this.vals.fill(NaN, n);
    if (this.builder.skipItem(r.item)) return;
    const b = this.builder;
    const i = b.item(r.item);
    const where = { file: this.file, line: record };
    b.setN(i, n, where);
    b.setKey(i, r.key, where);
    b.setBenchmark(i, r.benchmark, where);
    if (r.subtask && r.subtask !== r.benchmark) b.setSubtask(i, r.subtask);
    if (b.itemText[i] === null && r.options && r.options.length === n)
      b.itemText[i] = { question: r.question ?? '', options: r.options };
    this.block.add(b.llm(r.model), i, record, this.vals);
    this.rows++;
  }

  /**
   * Hands the block to the builder with a note of what was taken and dropped,
   * and the key check against the producer's score when there is one. A file
   * that gave no record throws, saying why each was dropped (the loader skips
   * the file with that reason).
   */
  finish(
    kind: ValueKind,
    reason: string,
    took: string,
    leakageKnown = kind !== 'weight',
    check: ProducerCheck | null = null,
  ): void {
    this.block.setKind(kind, reason, leakageKnown);
    const drops = [...this.dropped].map(([why, n]) => `${n} ${why}`);
    if (this.rows === 0)
      throw new DataError(
        drops.length ? `no usable record: ${drops.join(', ')}` : 'no records',
        this.file,
      );
    this.builder.warn({
      file: this.file,
      code: 'other',
      message: `${this.format}: took ${this.rows} records (${took})${
        drops.length ? `; dropped ${drops.join(', ')}` : ''
      }`,
    });
    if (check) this.builder.warn({ file: this.file, code: 'keycheck', message: checkNote(check) });
    this.builder.addBlock(this.block, {
      file: this.file,
      format: this.format,
      valueKind: kind,
      valueKindReason: reason,
      rows: this.rows,
      ...(check ? { producerCheck: check } : {}),
    });
  }
}
