/**
 * Compact per-file storage of parsed cells, and scattering them into the dense
 * J x I x Kmax layout once the whole data set's shape is known.
 */
import { growF32, growI32, growU8 } from './grow.ts';
import { DataError, OPTION_LABELS, type SourceInfo, type ValueKind, quoted } from './types.ts';

/** Dense arrays the blocks write into while the Dataset is assembled. */
export interface ScatterTarget {
  I: number;
  Kmax: number;
  nOptions: Uint8Array;
  llmIds: string[];
  itemIds: string[];
  /** Raw values; NaN marks a missing option of an observed cell. */
  obs: Float32Array;
  /** 1-based id of the block that filled each cell, 0 = missing. */
  owner: Uint16Array;
  /** File line each cell came from (its first row). */
  ownerLine: Int32Array;
  /** Bit k set when option k of the cell was given (long format only). */
  seen: Uint16Array | null;
  /** File name of a block id. */
  fileOf(id: number): string;
}

/** One data file's cells, not yet placed. */
export abstract class CellBlock {
  kind: ValueKind = 'prob';
  reason = '';
  /** False when raw mass cannot be known (weights, length-normalised scores). */
  leakageKnown = true;
  /** Column named in value errors raised after parsing (e.g. a cell with no mass). */
  valueColumn = '';

  constructor(
    readonly file: string,
    readonly format: SourceInfo['format'],
  ) {}

  /** Sets the value kind once the file has been read. */
  setKind(kind: ValueKind, reason: string, leakageKnown = kind !== 'weight'): void {
    this.kind = kind;
    this.reason = reason;
    this.leakageKnown = leakageKnown;
  }

  /** Writes this block's raw values into `t`; throws on duplicate cells or rows. */
  abstract scatter(t: ScatterTarget, id: number): void;
}

/** Throws the error for a (model, item) cell given twice. */
function duplicate(t: ScatterTarget, c: number, file: string, line: number, id: number): never {
  const other = t.owner[c];
  const first =
    other === id ? `line ${t.ownerLine[c]}` : `${t.fileOf(other)} line ${t.ownerLine[c]}`;
  const j = Math.floor(c / t.I);
  throw new DataError(
    `duplicate cell: model ${quoted(t.llmIds[j])}, item ${quoted(t.itemIds[c - j * t.I])} was already given at ${first}`,
    file,
    line,
    'item',
    'each (model, item) once',
  );
}

/** Cells with one row each: wide CSV rows and harness log lines. */
export class RowBlock extends CellBlock {
  readonly j = growI32();
  readonly i = growI32();
  readonly line = growI32();
  readonly values = growF32();

  constructor(
    file: string,
    format: SourceInfo['format'],
    /** Values stored per cell (option columns in the file). */
    readonly stride: number,
  ) {
    super(file, format);
  }

  /** Appends a cell; `vals` holds `stride` values, NaN for blank. */
  add(j: number, i: number, line: number, vals: ArrayLike<number>): void {
    this.j.push(j);
    this.i.push(i);
    this.line.push(line);
    const at = this.values.extend(this.stride, NaN);
    for (let k = 0; k < this.stride; k++) this.values.data[at + k] = vals[k];
  }

  scatter(t: ScatterTarget, id: number): void {
    const { I, Kmax, obs, owner, ownerLine } = t;
    const S = this.stride;
    const vals = this.values.data;
    for (let r = 0; r < this.j.length; r++) {
      const i = this.i.data[r];
      const c = this.j.data[r] * I + i;
      if (owner[c] !== 0) duplicate(t, c, this.file, this.line.data[r], id);
      owner[c] = id;
      ownerLine[c] = this.line.data[r];
      const K = t.nOptions[i];
      const off = c * Kmax;
      for (let k = 0; k < K; k++) obs[off + k] = k < S ? vals[r * S + k] : NaN;
    }
  }
}

/** Long format: one row per (model, item, option). */
export class OptionRowBlock extends CellBlock {
  readonly j = growI32();
  readonly i = growI32();
  readonly line = growI32();
  readonly option = growU8();
  readonly value = growF32();

  /** Appends one option row. */
  add(j: number, i: number, line: number, option: number, value: number): void {
    this.j.push(j);
    this.i.push(i);
    this.line.push(line);
    this.option.push(option);
    this.value.push(value);
  }

  scatter(t: ScatterTarget, id: number): void {
    const { I, Kmax, obs, owner, ownerLine } = t;
    const seen = t.seen!;
    for (let r = 0; r < this.j.length; r++) {
      const i = this.i.data[r];
      const c = this.j.data[r] * I + i;
      const k = this.option.data[r];
      if (owner[c] === 0) {
        owner[c] = id;
        ownerLine[c] = this.line.data[r];
        seen[c] = 0;
        obs.fill(NaN, c * Kmax, c * Kmax + t.nOptions[i]);
      } else if (owner[c] !== id) duplicate(t, c, this.file, this.line.data[r], id);
      if (seen[c] & (1 << k)) this.duplicateRow(t, r);
      seen[c] |= 1 << k;
      obs[c * Kmax + k] = this.value.data[r];
    }
  }

  private duplicateRow(t: ScatterTarget, r: number): never {
    const [j, i, k] = [this.j.data[r], this.i.data[r], this.option.data[r]];
    let first = 0;
    while (this.j.data[first] !== j || this.i.data[first] !== i || this.option.data[first] !== k)
      first++;
    throw new DataError(
      `duplicate row: model ${quoted(t.llmIds[j])}, item ${quoted(t.itemIds[i])}, option ` +
        `${OPTION_LABELS[k]} was already given at line ${this.line.data[first]}`,
      this.file,
      this.line.data[r],
      'option',
      'each (model, item, option) once',
    );
  }
}
