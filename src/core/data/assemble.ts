/**
 * Turns a builder's blocks into a Dataset: scatter raw values into the dense
 * layout, normalise each cell by its file's value kind, and aggregate warnings.
 */
import type { CellBlock, ScatterTarget } from './block.ts';
import type { DatasetBuilder } from './builder.ts';
import { normaliseCell, type CellResult } from './values.ts';
import { DataError, type Dataset, type LoadWarning, quoted } from './types.ts';

/** Per-block statistics gathered while normalising. */
class BlockStats {
  cells = 0;
  missingOptions = 0;
  missingCells = 0;
  missingLine = Infinity;
  renormalised = 0;
  renormLine = Infinity;
  minMass = Infinity;
  maxMass = -Infinity;
  leakSum = 0;
  leakN = 0;
  leakMax = -Infinity;
  leaky = 0;
  leakLine = Infinity;
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

/** Default cap on the dense arrays `assembleDataset` allocates: 8 GiB. */
export const DEFAULT_MAX_DENSE_BYTES = 8 * 1024 ** 3;

/** Bytes of the dense arrays for J x I cells: obs, observed, leakage and the scatter's own. */
export function denseBytes(J: number, I: number, Kmax: number, long: boolean): number {
  return J * I * (Kmax * 4 + 1 + 4 + 2 + 4 + (long ? 2 : 0));
}

/** A warning for the items file's items that no data file has (none when all are used). */
function unusedItems(b: DatasetBuilder): LoadWarning[] {
  const present = new Set(b.itemIds);
  const unused = [...b.items.keys()].filter((id) => !present.has(id));
  if (unused.length === 0) return [];
  return [
    {
      file: b.items.get(unused[0])!.at.file,
      line: b.items.get(unused[0])!.at.line,
      code: 'other',
      count: unused.length,
      message: `${unused.length} items in the items file have no data and were left out (first: ${quoted(unused[0])})`,
    },
  ];
}

/** Throws unless some data file was read (every one skipped, or items files only). */
function requireData(b: DatasetBuilder): void {
  if (b.blocks.length === 0 && b.skipped.length > 0)
    throw new DataError(
      `nothing left to read: ${b.skipped[0].message}`,
      b.skipped[0].file,
      b.skipped[0].line,
    );
  if (b.blocks.length === 0)
    throw new DataError(
      'no data files: only items files were given',
      b.sources[0]?.file ?? '(input)',
      undefined,
      undefined,
      'at least one wide, long or harness file',
    );
}

/**
 * Builds the Dataset. Throws DataError on duplicate cells or rows and on cells
 * with no mass, and when the dense arrays would take more than `maxBytes` or
 * cannot be allocated; missing options and renormalisation become warnings.
 */
export function assembleDataset(b: DatasetBuilder, maxBytes = DEFAULT_MAX_DENSE_BYTES): Dataset {
  requireData(b);
  const J = b.llmIds.length;
  const I = b.itemIds.length;
  const nOptions = Uint8Array.from(b.itemN);
  const key = Uint8Array.from(b.itemKey);
  let Kmax = 2;
  for (let i = 0; i < I; i++) Kmax = Math.max(Kmax, nOptions[i]);
  const long = b.blocks.some((bl) => bl.format === 'long');
  const tooBig = (why: string) =>
    new DataError(
      `the data set would have ${J} LLMs x ${I} items x ${Kmax} options: ` +
        `${(denseBytes(J, I, Kmax, long) / 1024 ** 3).toFixed(1)} GiB of arrays, ${why}`,
      b.blocks[0].file,
      undefined,
      undefined,
      'fewer models or items: load a sample of items, or check the model and item columns',
    );
  if (denseBytes(J, I, Kmax, long) > maxBytes)
    throw tooBig(`above the limit of ${(maxBytes / 1024 ** 3).toFixed(1)} GiB`);
  let t: ScatterTarget;
  try {
    t = {
      I,
      Kmax,
      nOptions,
      llmIds: b.llmIds,
      itemIds: b.itemIds,
      obs: new Float32Array(J * I * Kmax),
      owner: new Uint16Array(J * I),
      ownerLine: new Int32Array(J * I),
      seen: long ? new Uint16Array(J * I) : null,
      fileOf: (id) => b.blocks[id - 1].file,
    };
  } catch (e) {
    if (e instanceof RangeError) throw tooBig('more than this engine can allocate');
    throw e;
  }
  b.blocks.forEach((bl, n) => bl.scatter(t, n + 1));

  const observed = new Uint8Array(J * I);
  const leakage = new Float32Array(J * I).fill(NaN);
  const stats = b.blocks.map(() => new BlockStats());
  const res: CellResult = { mass: 0, missing: 0, ok: true };
  for (let c = 0; c < J * I; c++) {
    const id = t.owner[c];
    if (id === 0) continue;
    const bl = b.blocks[id - 1];
    const st = stats[id - 1];
    const line = t.ownerLine[c];
    normaliseCell(t.obs, c * Kmax, nOptions[c % I], bl.kind, res);
    if (!res.ok)
      throw new DataError(
        `cell (model ${quoted(b.llmIds[Math.floor(c / I)])}, item ${quoted(b.itemIds[c % I])}) has zero total mass`,
        bl.file,
        line,
        bl.valueColumn,
        'at least one option with positive probability',
      );
    observed[c] = 1;
    st.cells++;
    if (res.missing > 0) {
      st.missingOptions += res.missing;
      st.missingCells++;
      st.missingLine = Math.min(st.missingLine, line);
    }
    if (!bl.leakageKnown) continue;
    const leak = 1 - res.mass;
    leakage[c] = leak;
    st.leakSum += leak;
    st.leakN++;
    st.leakMax = Math.max(st.leakMax, leak);
    if (leak > 0.01) {
      st.leaky++;
      st.leakLine = Math.min(st.leakLine, line);
    }
    if (Math.abs(leak) > 0.01) {
      st.renormalised++;
      st.renormLine = Math.min(st.renormLine, line);
      st.minMass = Math.min(st.minMass, res.mass);
      st.maxMass = Math.max(st.maxMass, res.mass);
    }
  }

  const warnings = b.warnings();
  b.blocks.forEach((bl, n) => warnings.push(...blockWarnings(bl, stats[n])));
  warnings.push(...unusedItems(b));
  const hasText = b.itemText.some((x) => x !== null);
  // A sample keeps every LLM (the same LLMs whatever the sample), even one left without cells.
  const keepAll = (ds: Dataset) => (b.sampler ? ds : dropEmptyLlms(ds));
  return keepAll({
    J,
    I,
    Kmax,
    llmIds: b.llmIds.slice(),
    itemIds: b.itemIds.slice(),
    benchmarks: b.itemBench.slice(),
    nOptions,
    key,
    obs: t.obs,
    observed,
    leakage,
    ...(hasText ? { itemTexts: b.itemText.slice() } : {}),
    ...(b.itemSubtask.some((x) => x !== '') ? { subtasks: b.itemSubtask.slice() } : {}),
    sources: b.sources.slice(),
    warnings,
    skipped: b.skipped.map((w) => ({
      file: w.file,
      ...(w.line ? { line: w.line } : {}),
      reason: w.message,
    })),
  });
}

/**
 * Leaves out LLMs with no observed cell (a model whose files were all skipped),
 * with a note: an LLM without data would still get a θ and enter θ's
 * standardisation.
 */
export function dropEmptyLlms(ds: Dataset): Dataset {
  const { I, Kmax } = ds;
  const keep: number[] = [];
  for (let j = 0; j < ds.J; j++)
    if (ds.observed.subarray(j * I, (j + 1) * I).some((o) => o === 1)) keep.push(j);
  if (keep.length === ds.J) return ds;
  const kept = new Set(keep);
  const dropped = ds.llmIds.filter((_, j) => !kept.has(j));
  const pick = <T extends Float32Array | Uint8Array>(a: T, per: number, out: T): T => {
    keep.forEach((j, n) => out.set(a.subarray(j * per, (j + 1) * per), n * per));
    return out;
  };
  return {
    ...ds,
    J: keep.length,
    llmIds: keep.map((j) => ds.llmIds[j]),
    obs: pick(ds.obs, I * Kmax, new Float32Array(keep.length * I * Kmax)),
    observed: pick(ds.observed, I, new Uint8Array(keep.length * I)),
    leakage: pick(ds.leakage, I, new Float32Array(keep.length * I)),
    warnings: [
      ...ds.warnings,
      {
        file: '(load)',
        code: 'other',
        count: dropped.length,
        message:
          `${dropped.length} LLM${dropped.length > 1 ? 's' : ''} with no observed cell left out ` +
          `(${dropped.map((m) => quoted(m)).join(', ')}): every file of ${dropped.length > 1 ? 'these models' : 'this model'} was skipped or empty`,
      },
    ],
  };
}

function blockWarnings(bl: CellBlock, st: BlockStats): LoadWarning[] {
  const out: LoadWarning[] = [];
  const file = bl.file;
  if (st.missingOptions > 0)
    out.push({
      file,
      line: st.missingLine,
      code: 'zero-mass-option',
      count: st.missingOptions,
      message:
        `${st.missingOptions} option values missing in ${st.missingCells} cells were given zero ` +
        'mass (e.g. options absent from a top-k log-probability list)',
    });
  if (st.renormalised > 0)
    out.push({
      file,
      line: st.renormLine,
      code: 'renormalised',
      count: st.renormalised,
      message:
        `${st.renormalised} of ${st.cells} cells were renormalised by more than 1% ` +
        `(raw option mass from ${pct(st.minMass)} to ${pct(st.maxMass)})`,
    });
  if (st.leaky > 0)
    out.push({
      file,
      line: st.leakLine,
      code: 'leakage',
      count: st.leaky,
      message:
        `mass outside the options: mean ${pct(st.leakSum / st.leakN)}, max ${pct(st.leakMax)}, ` +
        `${st.leaky} of ${st.leakN} cells above 1%`,
    });
  return out;
}
