/**
 * A 10 MB single line, in every place it can sit, loads or fails with a short
 * DataError, in bounded time, whether read as one string or as 64 KiB Blob chunks.
 */
import { describe, expect, it } from 'vitest';
import { loadDataset } from './load.ts';
import { checkDataError, withTimeout } from '../../../test/support/data/checks.ts';
import { DataError, type Dataset } from './types.ts';

const MB10 = 10 * 1024 * 1024;
const big = (c = 'x') => c.repeat(MB10);
const WIDE = 'model,item,key,n_options,A,B\n';
const ok = '{"doc_id": 0, "target": 0, "filtered_resps": [["-1", "False"], ["-2", "False"]]}';
const JSONL = 'm/samples_t_2024-01-01T00-00-00.jsonl';

interface Case {
  name: string;
  file: string;
  text: () => string;
  /** Expected outcome: a check on the Dataset, or the DataError message. */
  loads?: (ds: Dataset) => void;
  error?: RegExp;
}

const cases: Case[] = [
  {
    name: 'junk data line without commas',
    file: 'w.csv',
    text: () => `${WIDE}m,q1,A,2,.5,.5\n${big()}\n`,
    error: /line 3: row has 1 fields but the header has 6/,
  },
  {
    name: 'a valid row with a 10 MB item id',
    file: 'w.csv',
    text: () => `${WIDE}m,${big('q')},A,2,.5,.5\nm,q2,B,2,.1,.9\n`,
    loads: (ds) => expect(ds.itemIds.map((id) => id.length)).toEqual([MB10, 2]),
  },
  {
    name: 'a 10 MB non-numeric value',
    file: 'w.csv',
    text: () => `${WIDE}m,q1,A,2,.5,${big()}\n`,
    error: /line 2, column B: non-numeric value 'x{60}… \(10485760 characters\)'/,
  },
  {
    name: 'an unterminated 10 MB quoted field',
    file: 'w.csv',
    text: () => `${WIDE}m,"q1,A,2,.5,.5\n${big()}`,
    error: /line 2: malformed CSV/,
  },
  {
    name: 'a 10 MB header line and no newline',
    file: 'w.csv',
    text: () => `model,item,key,${big()}`,
    error: /line 1/,
  },
  {
    name: 'a harness line with a 10 MB question',
    file: JSONL,
    text: () => `${ok}\n${ok.replace('0,', `1, "doc": {"question": "${big()}"},`)}\n`,
    loads: (ds) => expect(ds.I).toBe(2),
  },
  {
    name: 'a 10 MB line of invalid JSON',
    file: JSONL,
    text: () => `${ok}\n{"doc_id": 1, "x": ${big('1')}x}\n`,
    error: /line 2: invalid JSON/,
  },
];

describe('a 10 MB single line', () => {
  for (const c of cases)
    for (const how of ['text', 'blob'] as const)
      it(`${c.name} (${how})`, async () => {
        const text = c.text();
        const input =
          how === 'text' ? { name: c.file, text } : { name: c.file, blob: new Blob([text]) };
        const started = performance.now();
        const res = await withTimeout(
          loadDataset([input], { chunkSize: how === 'blob' ? 64 * 1024 : undefined }).catch(
            (e: unknown) => e,
          ),
          20_000,
          c.name,
        );
        const ms = performance.now() - started;
        expect(ms).toBeLessThan(20_000);
        if (c.error) {
          expect(res).toBeInstanceOf(DataError);
          checkDataError(res as DataError, [c.file]);
          expect((res as DataError).message).toMatch(c.error);
        } else {
          if (res instanceof Error) throw res;
          c.loads!(res as Dataset);
        }
      });
});
