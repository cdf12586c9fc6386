import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDatasetFromPaths } from '../../node/files';
import { demoDir } from '../../../test/support/data/utils';
import { fitDataset } from '../fit/fit';
import { bootstrapSpearman, externalValidity, parseNameMap, parseScores } from './external';
import { matchNames, nameKey } from './names';
import { emptyFitJson } from './testing';

describe('name matching', () => {
  it('normalises case, punctuation, org prefixes, chat suffixes and dates', () => {
    expect(nameKey('meta-llama/Llama-3.1-8B-Instruct', 1)).toBe('llama-3.1-8b-instruct');
    expect(nameKey('meta-llama/Llama-3.1-8B-Instruct', 2)).toBe('llama-3.1-8b');
    expect(nameKey('Meta-Llama-3.1-8B-Instruct', 2)).toBe('llama-3.1-8b');
    expect(nameKey('Llama-2-13b-chat-hf', 2)).toBe('llama-2-13b');
    expect(nameKey('google/gemma-2-9b-it', 2)).toBe('gemma-2-9b');
    expect(nameKey('Qwen3-30B-A3B-Instruct-2507', 2)).toBe('qwen3-30b-a3b');
    expect(nameKey('claude-3-5-sonnet-20241022', 2)).toBe('claude-3-5-sonnet');
    expect(nameKey('gpt-4o-2024-08-06', 2)).toBe('gpt-4o');
    expect(nameKey('Qwen2.5 72B', 1)).toBe(nameKey('qwen2.5_72b', 1));
    // '.' is kept: Qwen2.5-7B is not Qwen2-57B.
    expect(nameKey('Qwen2.5-7B', 2)).not.toBe(nameKey('Qwen2-57B', 2));
  });

  it('matches exact first, then by case, then normalised; one to one; their first wins ties', () => {
    const theirs = [
      'Llama-3.1-8B',
      'llama-3.1-8b',
      'Meta-Llama-3.1-70B-Instruct',
      'Qwen3-235B-A22B-Instruct-2507',
      'Qwen3-235B-A22B',
    ];
    const r = matchNames(
      ['llama-3.1-8b', 'Llama-3.1-8B', 'Llama-3.1-70B', 'Qwen3-235B-A22B', 'Mystery-7B'],
      theirs,
    );
    const by = Object.fromEntries(r.matches.map((m) => [m.ours, m]));
    expect(by['llama-3.1-8b']).toMatchObject({ theirs: 'llama-3.1-8b', how: 'exact' });
    expect(by['Llama-3.1-8B']).toMatchObject({ theirs: 'Llama-3.1-8B', how: 'exact' });
    expect(by['Llama-3.1-70B']).toMatchObject({
      theirs: 'Meta-Llama-3.1-70B-Instruct',
      how: 'normalised',
    });
    expect(by['Qwen3-235B-A22B']).toMatchObject({ theirs: 'Qwen3-235B-A22B', how: 'exact' });
    expect(r.unmatchedOurs).toEqual(['Mystery-7B']);
    expect(r.unmatchedTheirs).toEqual(['Qwen3-235B-A22B-Instruct-2507']);
    // Two of ours normalising alike take distinct leaderboard entries, best listed first.
    const t = matchNames(['a/Foo-7B-Instruct', 'b/Foo-7B-Chat'], ['Foo-7B-it', 'Foo-7B-hf']);
    expect(t.matches.map((m) => m.theirs)).toEqual(['Foo-7B-it', 'Foo-7B-hf']);
  });

  it('a map takes precedence over our own names', () => {
    const theirs = ['Phi-4', 'Phi-3-Medium-4k-Instruct'];
    const bare = matchNames(['Phi-4'], theirs);
    expect(bare.matches[0].theirs).toBe('Phi-4');
    const mapped = matchNames(
      ['Phi-4'],
      theirs,
      new Map([['Phi-4', 'microsoft/Phi-3-medium-4k-instruct']]),
    );
    expect(mapped.matches[0]).toEqual({
      ours: 'Phi-4',
      theirs: 'Phi-3-Medium-4k-Instruct',
      how: 'case',
      via: 'microsoft/Phi-3-medium-4k-instruct',
    });
    expect(matchNames(['x'], ['Y'], { x: 'Y' }).matches[0]).toMatchObject({
      theirs: 'Y',
      how: 'exact',
      via: 'Y',
    });
  });
});

describe('external scores and bootstrap', () => {
  it('reads model,score files and the LMArena layout', () => {
    expect(parseScores('model,score\nA,1.5\nB,\nC,x\nD,3\n')).toEqual([
      { name: 'A', score: 1.5 },
      { name: 'D', score: 3 },
    ]);
    const arena =
      'rank,rank_stylectrl,model,arena_score,95_pct_ci\n1,1,Big,1470,+5/-5\n2,3,"Small, v2",1400,+6/-6\n';
    expect(parseScores(arena)).toEqual([
      { name: 'Big', score: 1470 },
      { name: 'Small, v2', score: 1400 },
    ]);
    expect(parseScores(arena, { scoreColumn: 'rank_stylectrl' })[1].score).toBe(3);
    expect(() => parseScores(arena, { scoreColumn: 'elo' })).toThrow(/no score column "elo"/);
    expect(parseNameMap('model,hf_id\na,org/A\nb,org/B\n')).toEqual(
      new Map([
        ['a', 'org/A'],
        ['b', 'org/B'],
      ]),
    );
  });

  it('bootstrap sd is deterministic with a seed and shrinks with agreement', () => {
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const noisy = [2, 1, 4, 3, 6, 5, 8, 7, 10, 9];
    const ext = x.map((v) => 100 * v);
    const a = bootstrapSpearman([x, noisy], ext, 300, 7);
    const b = bootstrapSpearman([x, noisy], ext, 300, 7);
    expect(a).toEqual(b);
    expect(a[0].spearman).toBe(1);
    expect(a[0].sd).toBe(0);
    expect(a[1].spearman).toBeCloseTo(1 - (6 * 10) / (10 * 99), 12);
    expect(a[1].sd).toBeGreaterThan(0);
    expect(bootstrapSpearman([noisy], ext, 300, 8)[0].sd).not.toBe(a[1].sd);
  });

  it('externalValidity reports θ per fit and raw accuracy over the matched LLMs', () => {
    const fit = emptyFitJson('llmnrm', 4);
    fit.llms = ['a', 'b', 'c', 'd', 'e'].map((id, j) => ({
      id,
      theta: j,
      thetaSE: 0,
      s: 1,
      delta: [],
      rho: [],
      accuracy: [0.5, 0.7, 0.6, 0.8, 0.9][j],
      nObserved: 1,
    }));
    const scores = [
      { name: 'A', score: 10 },
      { name: 'B', score: 20 },
      { name: 'C', score: 30 },
      { name: 'D', score: 40 },
      { name: 'Z', score: 0 },
    ];
    const m = matchNames(
      fit.llms.map((l) => l.id),
      scores.map((s) => s.name),
    );
    expect(m.unmatchedOurs).toEqual(['e']);
    const { rows, used } = externalValidity(fit, scores, m.matches, { bootstrap: 50, seed: 1 });
    expect(used.length).toBe(4);
    expect(rows.map((r) => [r.measure, r.model, r.n])).toEqual([
      ['theta', 'llmnrm', 4],
      ['accuracy', 'accuracy', 4],
    ]);
    expect(rows[0].spearman).toBe(1);
    expect(rows[1].spearman).toBeCloseTo(0.8, 12);
    expect(() => externalValidity(fit, scores.slice(0, 2), m.matches)).toThrow(/at least 3/);
  });

  it('real data: NAEP LLM-NRM θ against the LMArena snapshot', async () => {
    const ds = await loadDatasetFromPaths([path.join(demoDir, 'econ-reading.wide.csv')]);
    const fit = await fitDataset(ds, { model: 'llmnrm', tol: 1e-6 });
    const arena = parseScores(
      readFileSync(path.join(demoDir, 'arena/lmarena_text_2025-08-04.csv'), 'utf8'),
    );
    const map = parseNameMap(readFileSync(path.join(demoDir, 'models.csv'), 'utf8'));
    const m = matchNames(
      fit.llms.map((l) => l.id),
      arena.map((s) => s.name),
      map,
    );
    const pairs = Object.fromEntries(m.matches.map((x) => [x.ours, x.theirs]));
    expect(pairs).toMatchObject({
      'Llama-3.1-8B': 'Meta-Llama-3.1-8B-Instruct',
      'Llama-3.3-70B': 'Llama-3.3-70B-Instruct',
      'Phi-4-14B': 'Phi-3-Medium-4k-Instruct', // the upstream "Phi-4-14B" is Phi-3-medium-4k
      'Qwen2.5-72B': 'Qwen2.5-72B-Instruct',
    });
    expect(m.matches.length).toBe(8);
    const { rows } = externalValidity(fit, arena, m.matches, { bootstrap: 500, seed: 1 });
    console.log('NAEP vs Arena', JSON.stringify(rows));
    expect(rows[0].spearman).toBeGreaterThan(0.5);
  });
});
