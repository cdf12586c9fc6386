import { describe, it } from 'vitest';
import { expectDataError, loadTexts } from '../../../test/support/data/utils.ts';

const W = 'model,item,key,n_options,A,B,C,D';
const ITEMS = 'item,key,n_options\nq1,A,4\nq2,B,3\n';
const wide = (...rows: string[]) => ({ 'w.csv': [W, ...rows].join('\n') + '\n' });
const long = (head: string, ...rows: string[]) => ({
  'l.csv': [head, ...rows].join('\n') + '\n',
  'items.csv': ITEMS,
});

interface Case {
  name: string;
  files: Record<string, string>;
  file?: string;
  line?: number;
  column?: string;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'key that is not an option label',
    files: wide('m,q1,A,4,.7,.1,.1,.1', 'm,q2,X,4,.7,.1,.1,.1'),
    line: 3,
    column: 'key',
    message: /key 'X' is not an option label/,
  },
  {
    name: 'key beyond n_options',
    files: wide('m,q1,E,4,.7,.1,.1,.1'),
    line: 2,
    column: 'key',
    message: /key 'E' is beyond the item's 4 options/,
  },
  {
    name: 'negative probability',
    files: { 'w.csv': 'model,item,key,p_A,p_B\nm,q1,A,.5,.5\nm,q2,A,.5,-0.1\n' },
    line: 3,
    column: 'p_B',
    message: /negative probability -0.1/,
  },
  {
    name: 'NaN value',
    files: wide('m,q1,A,4,.7,.1,NaN,.1'),
    line: 2,
    column: 'C',
    message: /'NaN' is NaN/,
  },
  {
    name: 'infinite value',
    files: wide('m,q1,A,4,.7,.1,.1,.1', 'm,q2,A,4,Inf,.1,.1,.1'),
    line: 3,
    column: 'A',
    message: /'Inf' is infinite/,
  },
  {
    name: 'non-numeric value',
    files: wide('m,q1,A,4,.7,abc,.1,.1'),
    line: 2,
    column: 'B',
    message: /non-numeric value 'abc'/,
  },
  {
    name: 'cell with zero total mass',
    files: wide('m,q1,A,4,.7,.1,.1,.1', 'm,q2,A,4,0,0,0,0'),
    line: 3,
    column: 'A..D',
    message: /zero total mass/,
  },
  {
    name: 'row with no values at all',
    files: wide('m,q1,A,4,,,,'),
    line: 2,
    message: /no option values/,
  },
  {
    name: 'duplicate wide row',
    files: wide('m,q1,A,4,.7,.1,.1,.1', 'm,q2,A,4,.7,.1,.1,.1', 'm,q1,A,4,.7,.1,.1,.1'),
    line: 4,
    column: 'item',
    message: /duplicate cell: model 'm', item 'q1' was already given at line 2/,
  },
  {
    name: 'duplicate cell across files',
    files: { ...wide('m,q1,A,4,.7,.1,.1,.1'), 'v.csv': `${W}\nm,q1,A,4,.7,.1,.1,.1\n` },
    file: 'v.csv',
    line: 2,
    column: 'item',
    message: /already given at w.csv line 2/,
  },
  {
    name: 'duplicate long row',
    files: long('model,item,option,prob', 'm,q1,A,.5', 'm,q1,B,.5', 'm,q1,A,.5'),
    file: 'l.csv',
    line: 4,
    column: 'option',
    message: /duplicate row: .*option A was already given at line 2/,
  },
  {
    name: 'n_options inconsistent across rows',
    files: wide('m,q1,A,4,.7,.1,.1,.1', 'n,q1,A,3,.7,.2,.1,'),
    line: 3,
    column: 'n_options',
    message: /n_options 3 for item 'q1' disagrees with n_options 4 at line 2/,
  },
  {
    name: 'key inconsistent across rows',
    files: wide('m,q1,A,4,.7,.1,.1,.1', 'n,q1,B,4,.7,.1,.1,.1'),
    line: 3,
    column: 'key',
    message: /key B for item 'q1' disagrees with key A at line 2/,
  },
  {
    name: 'long option not a label',
    files: long('model,item,option,prob', 'm,q1,A,.5', 'm,q1,Z,.5'),
    file: 'l.csv',
    line: 3,
    column: 'option',
    message: /option 'Z' is not an option label/,
  },
  {
    name: 'long option beyond n_options',
    files: long('model,item,option,logprob', 'm,q2,A,-1', 'm,q2,D,-1'),
    file: 'l.csv',
    line: 3,
    column: 'option',
    message: /option 'D' is beyond the item's 3 options/,
  },
  {
    name: 'wide value beyond n_options',
    files: wide('m,q1,A,3,.7,.1,.1,.1'),
    line: 2,
    column: 'D',
    message: /value in column D, but the item has 3 options/,
  },
  {
    name: 'missing required column',
    files: { 'w.csv': 'model,item,A,B\nm,q1,.5,.5\n' },
    line: 1,
    column: 'key',
    message: /missing required column 'key'/,
  },
  {
    name: 'missing value column in long format',
    files: long('model,item,option', 'm,q1,A'),
    file: 'l.csv',
    line: 1,
    column: 'prob',
    message: /missing required column 'prob'/,
  },
  {
    name: 'semicolon delimiter',
    files: { 'w.csv': 'model;item;key;A;B\nm;q1;A;0,5;0,5\n' },
    line: 1,
    message: /semicolon-delimited/,
  },
  {
    name: 'tab delimiter',
    files: { 'w.csv': 'model\titem\tkey\tA\tB\nm\tq1\tA\t.5\t.5\n' },
    line: 1,
    message: /tab-delimited/,
  },
  { name: 'empty file', files: { 'w.csv': '' }, message: /the file is empty/ },
  { name: 'header only', files: { 'w.csv': `${W}\n` }, line: 2, message: /no data rows/ },
  {
    name: 'long file without items file',
    files: { 'l.csv': 'model,item,option,prob\nm,q1,A,.5\n' },
    file: 'l.csv',
    message: /needs an items file/,
  },
  {
    name: 'long item missing from the items file',
    files: long('model,item,option,prob', 'm,q1,A,.5', 'm,q9,A,.5'),
    file: 'l.csv',
    line: 3,
    column: 'item',
    message: /item 'q9' is not in the items file/,
  },
  {
    name: 'n_options above 10',
    files: wide('m,q1,A,11,.7,.1,.1,.1'),
    line: 2,
    column: 'n_options',
    message: /n_options '11' is not an integer in 2..10/,
  },
  {
    name: 'n_options below 2 in an items file',
    files: { 'items.csv': 'item,key,n_options\nq1,A,1\n', ...wide('m,q1,A,4,.7,.1,.1,.1') },
    file: 'items.csv',
    line: 2,
    column: 'n_options',
    message: /not an integer in 2..10/,
  },
  {
    name: 'items file key disagreeing with the wide file',
    files: { ...wide('m,q1,B,4,.7,.1,.1,.1'), 'items.csv': ITEMS },
    file: 'w.csv',
    line: 2,
    column: 'key',
    message: /key B for item 'q1' disagrees with key A at items.csv line 2/,
  },
  {
    name: 'items file n_options disagreeing with the wide file',
    files: { ...wide('m,q2,B,4,.7,.1,.1,.1'), 'items.csv': ITEMS },
    file: 'w.csv',
    line: 2,
    column: 'n_options',
    message: /n_options 4 for item 'q2' disagrees with n_options 3 at items.csv line 3/,
  },
  {
    name: 'positive value in a log-probability file',
    files: wide('m,q1,A,4,-0.1,-3,-4,-5', 'm,q2,A,4,-0.1,0.3,-4,-5'),
    line: 3,
    column: 'B',
    message: /value 0.3 is positive, but line 2 column A has the negative value -0.1/,
  },
  {
    name: 'positive logp_ value',
    files: { 'w.csv': 'model,item,key,logp_A,logp_B\nm,q1,A,-1,0.2\n' },
    line: 2,
    column: 'logp_B',
    message: /log-probability 0.2 is positive/,
  },
  {
    name: 'probability above 1',
    files: { 'w.csv': 'model,item,key,p_A,p_B\nm,q1,A,1.5,0\n' },
    line: 2,
    column: 'p_A',
    message: /probability 1.5 is above 1/,
  },
  {
    name: 'row with too few fields',
    files: wide('m,q1,A,4,.7,.1,.1,.1', 'm,q2,A,4,.7,.1'),
    line: 3,
    message: /row has 6 fields but the header has 8/,
  },
  {
    name: 'duplicate item in an items file',
    files: { 'items.csv': 'item,key,n_options\nq1,A,4\nq1,A,4\n', ...wide('m,q1,A,4,.7,.1,.1,.1') },
    file: 'items.csv',
    line: 3,
    column: 'item',
    message: /duplicate item 'q1' \(first at line 2\)/,
  },
  {
    name: 'malformed quotes',
    files: wide('m,q1,A,4,.7,.1,.1,.1', 'm,"q2"x,A,4,.7,.1,.1,.1'),
    line: 3,
    message: /malformed CSV/,
  },
  {
    name: 'NA as a missing value',
    files: wide('m,q1,A,4,.7,.1,NA,.1'),
    line: 2,
    column: 'C',
    message: /leave the cell blank/,
  },
];

describe('validation errors name file, line and column', () => {
  for (const c of cases)
    it(c.name, async () => {
      await expectDataError(loadTexts(c.files), {
        file: c.file ?? 'w.csv',
        message: c.message,
        ...('line' in c ? { line: c.line } : {}),
        ...('column' in c ? { column: c.column } : {}),
      });
    });

  it('counts lines inside quoted multi-line fields', async () => {
    const items =
      'item,key,n_options,question\nq1,A,2,"two\nlines"\nq2,A,2,"three\n\nlines"\nq3,Q,2,x\n';
    await expectDataError(loadTexts({ 'items.csv': items, ...wide('m,q1,A,2,.5,.5,,') }), {
      file: 'items.csv',
      line: 7,
      column: 'key',
      message: /key 'Q'/,
    });
  });

  it('reports the line of a bad row in a CRLF file split into tiny chunks', async () => {
    const text = [W, 'm,q1,A,4,.7,.1,.1,.1', 'm,q2,A,4,.7,.1,.1,.1', 'm,q3,A,4,.7,x,.1,.1'].join(
      '\r\n',
    );
    for (const chunkSize of [1, 3, 7, 1000])
      await expectDataError(loadTexts({ 'w.csv': text }, { chunkSize }), {
        file: 'w.csv',
        line: 4,
        column: 'B',
        message: /non-numeric value 'x'/,
      });
  });
});
