/**
 * Accumulates LLMs, items and parsed blocks across files. Item facts (key, option
 * count, benchmark) are checked for agreement every time a row restates them.
 */
import type { CellBlock } from './block.ts';
import type { ItemSampler } from './sample.ts';
import {
  DataError,
  OPTION_LABELS,
  type ItemText,
  type LoadWarning,
  type SourceInfo,
  quoted,
} from './types.ts';

/** A place in a file. */
export interface Where {
  file: string;
  line: number;
}

/** One row of an items file. */
export interface ItemRecord {
  key: number;
  nOptions: number;
  benchmark: string;
  text: ItemText | null;
  at: Where;
}

/** Items files' contents, by item id. */
export type ItemsTable = Map<string, ItemRecord>;

const place = (w: Where, file: string) =>
  w.file === file ? `line ${w.line}` : `${w.file} line ${w.line}`;

interface Tally {
  file: string;
  code: LoadWarning['code'];
  line: number;
  count: number;
  message: (count: number) => string;
}

/**
 * Two files disagree about an item (key, option count): not one file's fault,
 * so the loader never skips a file for it.
 */
export class ConflictError extends DataError {}

/** Sizes at a point in the load, to undo one failed file (`mark`, `rollback`). */
export interface BuilderMark {
  llms: number;
  items: number;
  blocks: number;
  sources: number;
  notes: number;
}

/** Collects everything the parsers read; `assembleDataset` turns it into a Dataset. */
export class DatasetBuilder {
  readonly llmIds: string[] = [];
  readonly itemIds: string[] = [];
  readonly itemKey: number[] = [];
  /** Option count per item; 0 while not known. */
  readonly itemN: number[] = [];
  readonly itemBench: string[] = [];
  readonly itemText: (ItemText | null)[] = [];
  /** Subtask per item ('' when the item's benchmark has none), e.g. mmlu_anatomy in mmlu. */
  readonly itemSubtask: string[] = [];
  /** Files skipped as a whole (generative runs, older runs), with why. */
  readonly skipped: LoadWarning[] = [];
  readonly blocks: CellBlock[] = [];
  readonly sources: SourceInfo[] = [];
  readonly items: ItemsTable = new Map();
  /** Item sampling (`LoadOptions.sample`); null keeps every item. */
  sampler: ItemSampler | null = null;
  private readonly llmIndex = new Map<string, number>();
  private readonly itemIndex = new Map<string, number>();
  private readonly keyAt: Where[] = [];
  private readonly nAt: Where[] = [];
  private readonly tallies = new Map<string, Tally>();
  private readonly notes: LoadWarning[] = [];
  private readonly skipErrors = new Map<LoadWarning, DataError | undefined>();

  /** Merges an items file; an item in two items files must agree. */
  addItems(table: ItemsTable, source: SourceInfo): void {
    for (const [id, rec] of table) {
      const old = this.items.get(id);
      if (!old) this.items.set(id, rec);
      else if (old.key !== rec.key || old.nOptions !== rec.nOptions)
        throw new ConflictError(
          `item ${quoted(id)} has key ${OPTION_LABELS[rec.key]}, n_options ${rec.nOptions} here but key ` +
            `${OPTION_LABELS[old.key]}, n_options ${old.nOptions} at ${place(old.at, rec.at.file)}`,
          rec.at.file,
          rec.at.line,
          'item',
          'the same key and n_options in every items file',
        );
    }
    this.sources.push(source);
  }

  /** Index of an LLM, adding it on first sight. */
  llm(name: string): number {
    let j = this.llmIndex.get(name);
    if (j === undefined) {
      j = this.llmIds.length;
      this.llmIndex.set(name, j);
      this.llmIds.push(name);
    }
    return j;
  }

  /** True when rows of this item are to be skipped (sampled out); `count`: see `ItemSampler.keeps`. */
  skipItem(id: string, count = true): boolean {
    return this.sampler !== null && !this.sampler.keeps(id, count);
  }

  /** Index of an item, adding it on first sight (with its items-file facts, if any). */
  item(name: string): number {
    let i = this.itemIndex.get(name);
    if (i !== undefined) return i;
    i = this.itemIds.length;
    this.itemIndex.set(name, i);
    this.itemIds.push(name);
    const rec = this.items.get(name);
    const none = { file: '', line: 0 };
    this.itemKey.push(rec ? rec.key : -1);
    this.itemN.push(rec ? rec.nOptions : 0);
    this.itemBench.push(rec ? rec.benchmark : '');
    this.itemText.push(rec ? rec.text : null);
    this.itemSubtask.push('');
    this.keyAt.push(rec ? rec.at : none);
    this.nAt.push(rec ? rec.at : none);
    return i;
  }

  /** Records or checks an item's key (0-based). */
  setKey(i: number, key: number, at: Where): void {
    const old = this.itemKey[i];
    if (old < 0) {
      this.itemKey[i] = key;
      this.keyAt[i] = at;
    } else if (old !== key) {
      const was = this.keyAt[i];
      throw new ConflictError(
        `key ${OPTION_LABELS[key]} for item ${quoted(this.itemIds[i])} disagrees with key ` +
          `${OPTION_LABELS[old]} at ${place(was, at.file)}`,
        at.file,
        at.line,
        'key',
        `key ${OPTION_LABELS[old]}, as at ${was.file} line ${was.line}`,
      );
    }
  }

  /** Records or checks an item's option count. */
  setN(i: number, n: number, at: Where): void {
    const old = this.itemN[i];
    if (old === 0) {
      this.itemN[i] = n;
      this.nAt[i] = at;
    } else if (old !== n) {
      const was = this.nAt[i];
      throw new ConflictError(
        `n_options ${n} for item ${quoted(this.itemIds[i])} disagrees with n_options ${old} at ` +
          place(was, at.file),
        at.file,
        at.line,
        'n_options',
        `n_options ${old}, as at ${was.file} line ${was.line}`,
      );
    }
  }

  /** Where the item's key was first given. */
  keyWhere(i: number): Where {
    return this.keyAt[i];
  }

  /** Records a benchmark name; a conflicting later name is counted in a warning. */
  setBenchmark(i: number, name: string, at: Where): void {
    if (name === '' || name === this.itemBench[i]) return;
    if (this.itemBench[i] === '') this.itemBench[i] = name;
    else
      this.tally(at.file, 'other', 'benchmark', at.line, (n) => {
        return `${n} rows name a different benchmark than first given for their item; the first name was kept`;
      });
  }

  /** Records the subtask an item came from (the first one given is kept). */
  setSubtask(i: number, name: string): void {
    if (this.itemSubtask[i] === '') this.itemSubtask[i] = name;
  }

  /** Records a file skipped as a whole, with the error that skipped it if any; it is also a warning. */
  skip(w: LoadWarning, error?: DataError): void {
    this.skipped.push(w);
    this.skipErrors.set(w, error);
    this.notes.push(w);
  }

  /** The error for skipped file n: the one that skipped it, or one made from its note. */
  skipError(n: number): DataError {
    const w = this.skipped[n];
    return this.skipErrors.get(w) ?? new DataError(w.message, w.file, w.line);
  }

  /** The sizes now, before reading one file. */
  mark(): BuilderMark {
    return {
      llms: this.llmIds.length,
      items: this.itemIds.length,
      blocks: this.blocks.length,
      sources: this.sources.length,
      notes: this.notes.length,
    };
  }

  /** Forgets what `file` added since `m`: its LLMs, items, blocks, notes and tallies. */
  rollback(m: BuilderMark, file: string): void {
    for (const id of this.llmIds.splice(m.llms)) this.llmIndex.delete(id);
    for (const id of this.itemIds.splice(m.items)) this.itemIndex.delete(id);
    for (const a of [this.itemKey, this.itemN, this.itemBench, this.itemText, this.itemSubtask])
      a.length = m.items;
    this.keyAt.length = m.items;
    this.nAt.length = m.items;
    this.blocks.length = m.blocks;
    this.sources.length = m.sources;
    this.notes.length = m.notes;
    for (const [id, t] of this.tallies) if (t.file === file) this.tallies.delete(id);
  }

  /** Adds a parsed data file. */
  addBlock(block: CellBlock, source: SourceInfo): void {
    if (this.blocks.length >= 0xfffe) throw new DataError('too many data files', block.file);
    this.blocks.push(block);
    this.sources.push(source);
  }

  /**
   * Counts one occurrence of an aggregated warning: one warning per (file, code,
   * tag), carrying the count and the first line.
   */
  tally(
    file: string,
    code: LoadWarning['code'],
    tag: string,
    line: number,
    message: (count: number) => string,
  ): void {
    const id = `${file}\u0000${code}\u0000${tag}`;
    const t = this.tallies.get(id);
    if (t) {
      t.count++;
      t.line = Math.min(t.line, line);
    } else this.tallies.set(id, { file, code, line, count: 1, message });
  }

  /** Adds a warning as is. */
  warn(w: LoadWarning): void {
    this.notes.push(w);
  }

  /** All warnings so far, aggregated ones first. */
  warnings(): LoadWarning[] {
    const out: LoadWarning[] = [];
    for (const t of this.tallies.values())
      out.push({
        file: t.file,
        line: t.line,
        code: t.code,
        count: t.count,
        message: t.message(t.count),
      });
    return out.concat(this.notes);
  }
}
