/**
 * Property: damaged input (truncated, columns swapped, bad cells, duplicated or
 * deleted rows, BOM, CRLF / CR line ends, quoted commas and newlines, invalid
 * UTF-8, flipped bytes) ends in a loaded Dataset or a DataError naming the file
 * and line: never another exception, never a hang.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset } from './load.ts';
import {
  harnessFiles,
  longFiles,
  wideFiles,
  type TextFile,
} from '../../../test/support/data/formats.ts';
import {
  checkDataError,
  checkDataset,
  isInvalidUtf8,
  withTimeout,
} from '../../../test/support/data/checks.ts';
import {
  mutate,
  mutationArb,
  type Bytes,
  type Mutation,
} from '../../../test/support/data/mutate.ts';
import { specArb, type Spec } from '../../../test/support/data/spec.ts';
import { DataError, type Dataset } from './types.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const TIMEOUT_MS = 10_000;

type Outcome = 'loaded' | 'DataError';
/** Outcomes per property, per mutation kind and per format, printed at the end. */
const tally: Record<string, Record<Outcome, number>> = {};
const count = (name: string, o: Outcome) => {
  tally[name] ??= { loaded: 0, DataError: 0 };
  tally[name][o]++;
};

/** A valid file set in one of the formats. */
const formatArb = fc.constantFrom(
  'wide',
  'wide-logp',
  'wide-items',
  'long',
  'long-weight',
  'harness',
);
function validFiles(s: Spec, format: string): TextFile[] {
  const wide = { nOptions: true, bench: true, allTen: false, extra: false, scale: 1, crlf: false };
  switch (format) {
    case 'wide':
      return wideFiles(s, { ...wide, prefix: '', kind: 'prob' });
    case 'wide-logp':
      return wideFiles(s, { ...wide, prefix: 'logp_', kind: 'logprob' });
    case 'wide-items':
      return wideFiles(s, { ...wide, nOptions: false, prefix: 'p_', kind: 'prob' });
    case 'long':
      return longFiles(s, { kind: 'logprob', shuffle: 0, texts: true, scale: 1, crlf: false });
    case 'long-weight':
      return longFiles(s, { kind: 'weight', shuffle: 7, texts: false, scale: 10, crlf: false });
    default:
      return harnessFiles(s, {
        resps: 'strings',
        respsOnly: false,
        target: 'number',
        args: 'new',
        crlf: false,
      });
  }
}

/** Mutations that change nothing a CSV loader should care about (BOM, line ends). */
const BENIGN = new Set(['bom', 'crlf', 'crOnly']);

/** Loads the damaged files as Blobs and checks the outcome; returns it. */
async function loadDamaged(files: { name: string; bytes: Bytes }[], chunkSize?: number) {
  const names = files.map((f) => f.name);
  const started = performance.now();
  let outcome: Outcome;
  let ds: Dataset | null = null;
  try {
    ds = await withTimeout(
      loadDataset(
        files.map((f) => ({ name: f.name, blob: new Blob([f.bytes]) })),
        { chunkSize },
      ),
      TIMEOUT_MS,
      names.join(', '),
    );
    checkDataset(ds);
    // A damaged file may be skipped whole (listed with its reason) while the rest loads.
    const skipped = new Set(ds.skipped?.map((x) => x.file));
    if (files.some((f) => isInvalidUtf8(f.bytes) && !skipped.has(f.name)))
      expect(ds.warnings.some((w) => /invalid UTF-8/.test(w.message))).toBe(true);
    outcome = 'loaded';
  } catch (e) {
    if (!(e instanceof DataError)) throw e;
    checkDataError(e, names);
    outcome = 'DataError';
  }
  expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
  return { outcome, ds };
}

describe('damaged input ends in a Dataset or a DataError (property)', () => {
  afterAll(() => {
    for (const [key, o] of Object.entries(tally).sort())
      console.log(
        `mutation cases ${key}: ${o.loaded + o.DataError} (loaded ${o.loaded}, DataError ${o.DataError})`,
      );
  });

  for (const [name, mutations] of [
    ['one mutation', fc.array(mutationArb, { minLength: 1, maxLength: 1 })],
    ['two or three mutations', fc.array(mutationArb, { minLength: 2, maxLength: 3 })],
  ] as const)
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(
          specArb,
          formatArb,
          fc.nat(),
          mutations,
          fc.constantFrom(5, 64, 4096, undefined),
          async (spec, format, pick, ms: Mutation[], chunkSize) => {
            const enc = new TextEncoder();
            const files = validFiles(spec, format).map((f) => ({
              name: f.name,
              bytes: enc.encode(f.text),
            }));
            const target = files[pick % files.length];
            const before = target.bytes;
            for (const m of ms) target.bytes = mutate(target.bytes, m);
            const { outcome, ds } = await loadDamaged(files, chunkSize);
            const crOnlyJsonl = ms.some((m) => m.op === 'crOnly') && target.name.endsWith('.jsonl');
            // Line-end changes also rewrite newlines inside quoted ids, which changes the data.
            const idNewlines = spec.items.some((it) => it.id.includes('\n'));
            if (ms.every((m) => BENIGN.has(m.op)) && !crOnlyJsonl && !idNewlines) {
              target.bytes = before;
              const { ds: want } = await loadDamaged(files, chunkSize);
              expect(ds?.obs).toEqual(want?.obs);
              expect(ds?.key).toEqual(want?.key);
            }
            count(`property '${name}'`, outcome);
            for (const op of new Set(ms.map((m) => m.op))) count(`with ${op}`, outcome);
            count(`in format ${format}`, outcome);
          },
        ),
        { numRuns: RUNS },
      );
    });
});
