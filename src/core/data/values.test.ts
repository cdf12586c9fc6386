import { describe, expect, it } from 'vitest';
import { cell, loadTexts } from '../../../test/support/data/utils.ts';

/** Float32 results against double-precision expectations. */
function expectClose(got: number[], want: number[]) {
  expect(got.length).toBe(want.length);
  got.forEach((g, k) => expect(Math.abs(g - want[k])).toBeLessThan(1e-7));
}

const ITEMS = 'item,key,n_options\nq1,A,4\nq2,B,3\n';

describe('value kinds, missing options and leakage', () => {
  it('gives blank wide options zero mass, renormalises the rest, and warns once', async () => {
    const ds = await loadTexts({
      'w.csv':
        'model,item,key,n_options,A,B,C,D\n' +
        'm,q1,A,4,0.5,0.2,0.2,\nm,q2,A,4,0.25,0.25,0.25,0.25\nn,q1,A,4,0.6,,0.2,\n',
    });
    expectClose(
      cell(ds, 'm', 'q1'),
      [0.5, 0.2, 0.2, 0].map((x) => x / 0.9),
    );
    expect(cell(ds, 'n', 'q1')).toEqual([0.75, 0, 0.25, 0]);
    expect(ds.leakage[0]).toBeCloseTo(0.1, 6);
    expect(ds.leakage[1]).toBeCloseTo(0, 6);
    expect(ds.leakage[2]).toBeCloseTo(0.2, 6);
    const w = ds.warnings.find((x) => x.code === 'zero-mass-option');
    expect(w).toMatchObject({ file: 'w.csv', line: 2, count: 3 });
    expect(w?.message).toMatch(/3 option values missing in 2 cells/);
    const leak = ds.warnings.find((x) => x.code === 'leakage');
    expect(leak).toMatchObject({ line: 2, count: 2 });
    expect(leak?.message).toMatch(/mean 10.00%, max 20.00%, 2 of 3 cells above 1%/);
    expect(ds.warnings.find((x) => x.code === 'renormalised')).toMatchObject({ count: 2, line: 2 });
  });

  it('gives options absent from a long file zero mass (top-k log-probabilities)', async () => {
    const ds = await loadTexts({
      'l.csv':
        'model,item,option,logprob\nm,q1,A,-0.1\nm,q1,C,-3\nm,q2,B,-0.5\nm,q2,A,-2\nm,q2,C,-2\n',
      'items.csv': ITEMS,
    });
    const e = [Math.exp(-0.1), 0, Math.exp(-3), 0];
    const s = e[0] + e[2];
    expectClose(
      cell(ds, 'm', 'q1'),
      e.map((x) => x / s),
    );
    expect(ds.leakage[0]).toBeCloseTo(1 - s, 6);
    expect(ds.warnings.find((x) => x.code === 'zero-mass-option')).toMatchObject({
      file: 'l.csv',
      line: 2,
      count: 2,
    });
    expect(ds.sources.find((x) => x.format === 'long')).toMatchObject({
      valueKind: 'logprob',
      valueKindReason: "column name 'logprob'",
    });
  });

  it('detects log-probabilities from negative values and applies a softmax', async () => {
    const ds = await loadTexts({ 'w.csv': 'model,item,key,A,B\nm,q1,B,-1,-2\nm,q2,A,0,-30\n' });
    expect(ds.sources[0].valueKind).toBe('logprob');
    expect(ds.sources[0].valueKindReason).toMatch(/negative values \(first at line 2, column A\)/);
    const p = 1 / (1 + Math.exp(-1));
    expectClose(cell(ds, 'm', 'q1'), [p, 1 - p]);
    expect(ds.leakage[0]).toBeCloseTo(1 - Math.exp(-1) - Math.exp(-2), 6);
  });

  it('detects unnormalised weights, renormalises silently and leaves leakage unknown', async () => {
    const ds = await loadTexts({ 'w.csv': 'model,item,key,A,B,C\nm,q1,C,2,1,1\nm,q2,A,1,1,0\n' });
    expect(ds.sources[0]).toMatchObject({ valueKind: 'weight' });
    expect(ds.sources[0].valueKindReason).toMatch(/value 2 above 1 at line 2/);
    expect(cell(ds, 'm', 'q1')).toEqual([0.5, 0.25, 0.25]);
    expect(Number.isNaN(ds.leakage[0])).toBe(true);
    // Renormalising weights is expected: no renormalisation or leakage warning.
    expect(ds.warnings.map((w) => w.code)).toEqual(['other']);
  });

  it('calls rows summing above 1.01 weights, and at most 1.01 probabilities', async () => {
    const heavy = await loadTexts({ 'w.csv': 'model,item,key,A,B\nm,q1,A,0.9,0.2\n' });
    expect(heavy.sources[0].valueKind).toBe('weight');
    const light = await loadTexts({ 'w.csv': 'model,item,key,A,B\nm,q1,A,0.9,0.105\n' });
    expect(light.sources[0].valueKind).toBe('prob');
  });

  it('honours a valueKind override and the p_ / logp_ prefixes', async () => {
    const text = 'model,item,key,A,B\nm,q1,A,0.3,0.1\n';
    const w = await loadTexts({ 'w.csv': text }, { valueKind: 'weight' });
    expect(w.sources[0]).toMatchObject({ valueKind: 'weight', valueKindReason: 'override' });
    expect(Number.isNaN(w.leakage[0])).toBe(true);
    const p = await loadTexts({ 'w.csv': 'model,item,key,p_A,p_B\nm,q1,A,1,1\n' });
    expect(p.sources[0]).toMatchObject({ valueKind: 'prob', valueKindReason: 'column prefix p_' });
    expect(p.leakage[0]).toBeCloseTo(-1, 6);
    expect(p.warnings.find((x) => x.code === 'renormalised')?.message).toMatch(/200.00%/);
    const l = await loadTexts({ 'w.csv': 'model,item,key,logp_A,logp_B\nm,q1,A,0,0\n' });
    expect(l.sources[0]).toMatchObject({
      valueKind: 'logprob',
      valueKindReason: 'column prefix logp_',
    });
    expect(cell(l, 'm', 'q1')).toEqual([0.5, 0.5]);
  });

  it('infers option counts per item when there is no n_options column', async () => {
    const ds = await loadTexts({
      'w.csv':
        'model,item,key,A,B,C,D\nm,two,B,.5,.5,,\nn,two,B,.9,.1,,\nm,four,D,.1,.1,.1,.7\nm,gap,A,.5,,.5,\nn,gap,A,.5,.5,,\n',
    });
    expect(Array.from(ds.nOptions)).toEqual([2, 4, 4]);
    expect(ds.Kmax).toBe(4);
    expect(ds.warnings.find((w) => w.message.includes('inferred'))?.count).toBe(3);
  });

  it('leaves out items that only the items file lists, with a warning', async () => {
    const ds = await loadTexts({
      'items.csv': ITEMS + 'q3,C,3\n',
      'w.csv': 'model,item,key,n_options,A,B,C,D\nm,q2,B,3,.2,.7,.1,\n',
    });
    expect(ds.itemIds).toEqual(['q2']);
    expect(ds.warnings.find((w) => w.code === 'other')).toMatchObject({
      file: 'items.csv',
      line: 2,
      count: 2,
    });
  });

  it('keeps key checks for inferred option counts', async () => {
    const err = await loadTexts({ 'w.csv': 'model,item,key,A,B,C\nm,q1,C,.5,.5,\n' }).catch(
      (e) => e,
    );
    expect(err.message).toMatch(
      /w.csv, line 2, column key: key 'C' is beyond the item's 2 options/,
    );
  });
});
