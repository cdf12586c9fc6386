import { describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { fastColumn } from './parquetColumns.ts';
import { createRng } from '../model/rng.ts';

type El = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];
type Rep = 'OPTIONAL' | 'REQUIRED';
const str = (name: string, rep: Rep = 'OPTIONAL'): El => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: rep,
});
const list = (name: string, element: El[], rep: Rep = 'OPTIONAL'): El[] => [
  { name, repetition_type: rep, converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  ...element,
];

/** Columns of every shape fastColumn reads, nulls and empty lists at every level. */
function file(seed: number, rows: number, required: boolean) {
  const r = createRng(seed).next;
  const rep: Rep = required ? 'REQUIRED' : 'OPTIONAL';
  const p = required ? 0 : 0.15;
  const words = ['', 'a', ' red', 'é ✓', 'Question: which one?\nAnswer:', 'x'.repeat(200)];
  const word = () => (r() < p ? null : words[Math.floor(r() * words.length)]);
  const strings = (n: number) => Array.from({ length: Math.floor(r() * n) }, word);
  const maybe = <T>(f: () => T) => (r() < p ? null : f());
  const schema: El[] = [
    { name: 'schema', num_children: 7 },
    { name: 'id', type: 'INT64', repetition_type: rep },
    { name: 'score', type: 'DOUBLE', repetition_type: rep },
    str('text', rep),
    { name: 'doc', repetition_type: rep, num_children: 3 },
    str('question', rep),
    ...list('choices', [str('element', rep)], rep),
    { name: 'inner', repetition_type: rep, num_children: 1 },
    str('label', rep),
    ...list('tags', [str('element', rep)], rep),
    ...list('pairs', list('element', [str('element', rep)], rep), rep),
    ...list('ints', [{ name: 'element', type: 'INT64', repetition_type: rep }], rep),
  ];
  const data = Array.from({ length: rows }, (_, i) => ({
    id: maybe(() => BigInt(i)),
    score: maybe(() => r() * 10 - 5),
    text: word(),
    doc: maybe(() => ({
      question: word(),
      choices: maybe(() => strings(6)),
      inner: maybe(() => ({ label: word() })),
    })),
    tags: maybe(() => strings(4)),
    pairs: maybe(() => Array.from({ length: Math.floor(r() * 5) }, () => maybe(() => strings(3)))),
    ints: maybe(() =>
      Array.from({ length: Math.floor(r() * 4) }, () => maybe(() => BigInt(Math.floor(r() * 100)))),
    ),
  }));
  const names = ['id', 'score', 'text', 'doc', 'tags', 'pairs', 'ints'] as const;
  const buf = parquetWriteBuffer({
    schema,
    columnData: names.map((name) => ({ name, data: data.map((d) => d[name]) })),
    rowGroupSize: 113,
    pageSize: 700,
  });
  return { buf, names };
}

describe('fastColumn', () => {
  it('gives the rows parquetReadObjects gives for scalars, structs and nested lists', async () => {
    for (const [seed, required] of [
      [1, false],
      [2, false],
      [3, true],
      [4, false],
    ] as const) {
      const { buf, names } = file(seed, 500, required);
      const metadata = parquetMetadata(buf);
      expect(metadata.row_groups.length).toBeGreaterThan(1);
      for (const name of names) {
        const want = (await parquetReadObjects({ file: buf, metadata, columns: [name] })).map(
          (row) => row[name],
        );
        expect(fastColumn(buf, metadata, name), `${name}, seed ${seed}`).toStrictEqual(want);
      }
    }
  });
});

/** A file with `arguments`: struct of K gen_args_k structs {arg_0, arg_1}, nulls at every level. */
function argumentsFile(seed: number, rows: number, opts: { required?: boolean } = {}) {
  const r = createRng(seed).next;
  const K = 4;
  const words = [
    '',
    'a',
    ' red',
    ' blue green',
    'é ✓',
    'Question: which one?\nAnswer:',
    'x'.repeat(40),
  ];
  const pick = () => words[Math.floor(r() * words.length)];
  const nullable = (p: number, v: () => unknown) => (r() < p ? null : v());
  const data = Array.from({ length: rows }, () =>
    nullable(opts.required ? 0 : 0.1, () =>
      Object.fromEntries(
        Array.from({ length: K }, (_, k) => [
          `gen_args_${k}`,
          nullable(opts.required ? 0 : 0.2, () => ({
            arg_0: nullable(opts.required ? 0 : 0.1, pick),
            arg_1: nullable(opts.required ? 0 : 0.1, pick),
          })),
        ]),
      ),
    ),
  );
  const rep = opts.required ? 'REQUIRED' : 'OPTIONAL';
  const schema: El[] = [
    { name: 'schema', num_children: 2 },
    { name: 'doc_id', type: 'INT64', repetition_type: 'OPTIONAL' },
    { name: 'arguments', repetition_type: rep, num_children: K },
    ...Array.from({ length: K }, (_, k): El[] => [
      { name: `gen_args_${k}`, repetition_type: rep, num_children: 2 },
      str('arg_0', rep),
      str('arg_1', rep),
    ]).flat(),
  ];
  const buf = parquetWriteBuffer({
    schema,
    columnData: [
      { name: 'doc_id', data: data.map((_, i) => BigInt(i)) },
      { name: 'arguments', data },
    ],
    rowGroupSize: 97,
    pageSize: 512,
  });
  return buf;
}

describe('fastColumn on a struct of structs (the harness arguments)', () => {
  it('gives the rows parquetReadObjects gives, nulls at every level, over row groups and pages', async () => {
    for (const [seed, required] of [
      [1, false],
      [2, false],
      [3, true],
    ] as const) {
      const buf = argumentsFile(seed, 400, { required });
      const metadata = parquetMetadata(buf);
      expect(metadata.row_groups.length).toBeGreaterThan(1);
      const want = (await parquetReadObjects({ file: buf, metadata, columns: ['arguments'] })).map(
        (row) => row.arguments,
      );
      expect(fastColumn(buf, metadata, 'arguments')).toStrictEqual(want);
    }
  });
});
