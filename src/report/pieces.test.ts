import { describe, expect, it } from 'vitest';
import type { FitJson, LlmResult } from '../core/fit/types';
import { fileNamer } from './caps';
import { esc, fmt, int, pct, table, numCell, textCell } from './html';
import { extent, linear, ticks } from './svg/frame';
import { labelPositions } from './svg/itemCurves';
import { rankingSection, rankLlms } from './sections/ranking';

describe('report pieces, against hand-worked values', () => {
  it('formats numbers the same way everywhere', () => {
    expect(fmt(-0.001, 2)).toBe('0.00');
    expect(fmt(-0.006, 2)).toBe('-0.01');
    expect(fmt(1.005, 1)).toBe('1.0');
    expect(fmt(NaN)).toBe('—');
    expect(fmt(Infinity)).toBe('—');
    expect(int(1234567)).toBe('1,234,567');
    expect(int(999)).toBe('999');
    expect(pct(0.4433, 1)).toBe('44.3%');
    expect(esc(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });

  it('takes round ticks and linear scales', () => {
    expect(ticks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(ticks(-3.4, 1.6, 8)).toEqual([-3, -2, -1, 0, 1]);
    expect(ticks(0.3, 0.42, 4)).toEqual([0.3, 0.35, 0.4]);
    const x = linear(-4, 4, 40, 240);
    expect(x(0)).toBe(140);
    expect(x(-4)).toBe(40);
    expect(extent([1, 3], 0.5)).toEqual([0, 4]);
    expect(extent([2, 2])).toEqual([1.5, 2.5]);
  });

  it('pushes overlapping end labels apart and keeps their order', () => {
    expect(labelPositions([100, 104, 50, 100], 10)).toEqual([100, 120, 50, 110]);
    // Kept above the axis at 112: the lowest label moves up, and the others make room.
    expect(labelPositions([100, 104, 50, 100], 10, 112)).toEqual([92, 112, 50, 102]);
  });

  it('names files without the folder they all share', () => {
    const cli = fileNamer(['/w/public/demo/b.csv', '/w/public/demo/a.csv']);
    expect(cli('/w/public/demo/a.csv')).toBe('a.csv');
    expect(fileNamer(['a.csv', 'b.csv'])('a.csv')).toBe('a.csv');
    const root = ['/runs/out/org__m1/x.jsonl', '/runs/out/deep/org__m2/x.jsonl'];
    expect(fileNamer(root)(root[1])).toBe('deep/org__m2/x.jsonl');
    const app = fileNamer(['out/org__m1/x.jsonl', 'out/deep/org__m2/x.jsonl']);
    expect(app('out/org__m1/x.jsonl')).toBe('org__m1/x.jsonl');
    expect(fileNamer(['public/demo/a.csv'])('public/demo/a.csv')).toBe('a.csv');
    expect(cli('elsewhere/z.csv')).toBe('z.csv');
  });

  it('caps a table and counts what it left out', () => {
    const rows = [1, 2, 3].map((n) => [textCell(`r${n}`), numCell(String(n))]);
    const t = table('T', ['name', 'n'], rows, { cap: 2 });
    expect(t).toContain('<th scope="row">r2</th><td class="num">2</td>');
    expect(t).not.toContain('r3');
    expect(t).toContain('1 more rows of 3 not shown.');
  });

  it('ranks LLMs by θ and by accuracy, ties sharing the mean rank', () => {
    const llm = (id: string, theta: number, accuracy: number): LlmResult => ({
      id,
      theta,
      thetaSE: 0.1,
      s: 1,
      delta: [],
      rho: [],
      accuracy,
      nObserved: 10,
    });
    const fit = {
      llms: [llm('b', 0.5, 0.6), llm('a', 1, 0.5), llm('c', -1, 0.6), llm('d', 0.5, 0.9)],
    } as Pick<FitJson, 'llms'> as FitJson;
    const r = rankLlms(fit).map((x) => [x.l.id, x.thetaRank, x.accRank]);
    // θ: a 1 > b = d 0.5 > c; accuracy: d 0.9 > b = c 0.6 > a 0.5.
    expect(r).toEqual([
      ['a', 1, 4],
      ['b', 2.5, 2.5],
      ['d', 2.5, 1],
      ['c', 4, 2.5],
    ]);
  });

  it('says in words where θ and accuracy disagree most', () => {
    const llm = (id: string, theta: number, accuracy: number): LlmResult => ({
      id,
      theta,
      thetaSE: 0.2,
      s: 1,
      delta: [0.1, -0.3],
      rho: [0, 0],
      accuracy,
      nObserved: 10,
    });
    // θ ranks a, b, c; accuracy ranks c (0.9), a (0.8), b (0.7): c is 3rd by θ, 1st by accuracy.
    const fit = {
      model: 'llmnrm',
      llms: [llm('a', 1, 0.8), llm('b', 0, 0.7), llm('c', -1, 0.9)],
    } as Pick<FitJson, 'model' | 'llms'> as FitJson;
    const t = rankingSection(fit).replace(/<[^>]+>/g, ' ');
    expect(t).toContain('a ranks first (θ = 1.00 ± 0.20) and c last (θ = -1.00) of 3 LLMs');
    expect(t).toContain(
      'θ and accuracy disagree most on c: rank 3 by θ but 1 by accuracy (90.0% correct)',
    );
    expect(t).toContain('places it lower than its accuracy does');
    // Position bias: the largest δ is A's 0.10; the fallback ρ is all zero.
    expect(t).toContain(' A 0.10 ');
  });
});
