/**
 * Property: random valid data sets (J, I, K_i in 2..10 mixed, missing cells and
 * options, optional benchmarks, probabilities / log-probabilities / weights)
 * written in every input format load back to the same typed arrays.
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { loadDataset, type LoadOptions } from './load.ts';
import {
  harnessFiles,
  itemsCsv,
  longFiles,
  wideFiles,
  type HarnessVariant,
  type TextFile,
} from '../../../test/support/data/formats.ts';
import {
  expectedDataset,
  expectMatchesSpec,
  specArb,
  type Compare,
  type Spec,
} from '../../../test/support/data/spec.ts';
import { writeItemsCsv, writeLongCsv, writeWideCsv } from './write.ts';

const RUNS = 200;
const counts: Record<string, number> = {};

/** How files reach the loader: whole strings, or Blobs read in small byte chunks. */
const inputArb = fc.oneof(
  fc.constant({ blob: false, chunkSize: undefined as number | undefined }),
  fc.record({ blob: fc.constant(true), chunkSize: fc.constantFrom(7, 64, 1000, undefined) }),
);
type Input = typeof inputArb extends fc.Arbitrary<infer T> ? T : never;

function load(files: TextFile[], input: Input, opts: LoadOptions = {}) {
  const enc = new TextEncoder();
  return loadDataset(
    files.map((f) => (input.blob ? { name: f.name, blob: new Blob([enc.encode(f.text)]) } : f)),
    { ...opts, chunkSize: input.chunkSize },
  );
}

/** Runs `numRuns` cases of a round-trip property and counts them. */
function roundTrip<T>(
  name: string,
  variant: fc.Arbitrary<T>,
  write: (s: Spec, v: T) => TextFile[],
  how: (v: T) => Compare,
  opts: (v: T) => LoadOptions = () => ({}),
) {
  it(name, async () => {
    counts[name] = 0;
    await fc.assert(
      fc.asyncProperty(specArb, variant, inputArb, async (spec, v, input) => {
        counts[name]++;
        const ds = await load(write(spec, v), input, opts(v));
        expectMatchesSpec(ds, spec, how(v));
      }),
      { numRuns: RUNS },
    );
  });
}

const common = {
  nOptions: fc.boolean(),
  bench: fc.boolean(),
  allTen: fc.boolean(),
  extra: fc.boolean(),
  crlf: fc.boolean(),
};
const wideHow = (v: { bench: boolean }): Compare => ({
  exactOrder: true,
  bench: v.bench ? 'spec' : 'none',
  texts: false,
});

describe('round trips through every format (property)', () => {
  afterAll(() => {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(`round-trip property cases: ${JSON.stringify(counts)}; total ${total}`);
  });

  roundTrip(
    'wide p_ probabilities',
    fc.record({
      ...common,
      prefix: fc.constant('p_' as const),
      kind: fc.constant('prob' as const),
      scale: fc.constant(1),
    }),
    wideFiles,
    wideHow,
  );
  roundTrip(
    'wide logp_ log-probabilities',
    fc.record({
      ...common,
      prefix: fc.constant('logp_' as const),
      kind: fc.constant('logprob' as const),
      scale: fc.constant(1),
    }),
    wideFiles,
    wideHow,
  );
  roundTrip(
    'wide plain probabilities (detected)',
    fc.record({
      ...common,
      prefix: fc.constant('' as const),
      kind: fc.constant('prob' as const),
      scale: fc.constant(1),
    }),
    wideFiles,
    wideHow,
  );
  roundTrip(
    'wide plain weights (detected)',
    fc.record({
      ...common,
      prefix: fc.constant('' as const),
      kind: fc.constant('weight' as const),
      scale: fc.double({ min: 1.5, max: 1000, noNaN: true }),
    }),
    wideFiles,
    wideHow,
  );
  roundTrip(
    'wide plain log-probabilities (valueKind override)',
    fc.record({
      ...common,
      prefix: fc.constant('' as const),
      kind: fc.constant('logprob' as const),
      scale: fc.constant(1),
    }),
    wideFiles,
    wideHow,
    () => ({ valueKind: 'logprob' }),
  );
  roundTrip(
    'writeWideCsv of the expected Dataset',
    fc.constant(null),
    (s) => [{ name: 'w.csv', text: writeWideCsv(expectedDataset(s)) }],
    () => ({ exactOrder: true, bench: 'spec', texts: false }),
  );

  const longArb = (kind: 'prob' | 'logprob' | 'weight') =>
    fc.record({
      kind: fc.constant(kind),
      shuffle: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1e9 })),
      texts: fc.boolean(),
      scale: kind === 'weight' ? fc.double({ min: 0.01, max: 1000, noNaN: true }) : fc.constant(1),
      crlf: fc.boolean(),
    });
  const longHow = (v: { shuffle: number; texts: boolean }): Compare => ({
    exactOrder: v.shuffle === 0,
    bench: 'spec',
    texts: v.texts,
  });
  roundTrip('long prob + items', longArb('prob'), longFiles, longHow);
  roundTrip('long logprob + items', longArb('logprob'), longFiles, longHow);
  roundTrip('long weight + items', longArb('weight'), longFiles, longHow);
  roundTrip(
    'writeLongCsv + writeItemsCsv of the expected Dataset',
    fc.boolean(),
    (s, extraItems) => {
      const ds = expectedDataset(s);
      const items = extraItems ? itemsCsv(s, { texts: true, bench: true }) : null;
      return [
        { name: 'l.csv', text: writeLongCsv(ds) },
        items ?? { name: 'i.csv', text: writeItemsCsv(ds) },
      ];
    },
    () => ({ exactOrder: true, bench: 'spec', texts: true }),
  );

  const harnessArb: fc.Arbitrary<HarnessVariant> = fc.record({
    resps: fc.constantFrom('strings', 'numbers', 'nested'),
    respsOnly: fc.boolean(),
    target: fc.constantFrom('number', 'string', 'label'),
    args: fc.constantFrom('new', 'old', 'choices', 'none'),
    crlf: fc.boolean(),
  });
  roundTrip('harness jsonl, one folder per model', harnessArb, harnessFiles, () => ({
    exactOrder: false,
    bench: 'task',
    texts: false,
  }));
});
