import { describe, expect, it } from 'vitest';
import { autoAssign, duplicateMatches, reassign, toMatches } from './matching';

const ours = ['Llama-3.1-8B', 'Qwen2.5-72B', 'gpt-4o', 'OLMo-2-7B'];
const theirs = ['GPT-4o', 'Meta-Llama-3.1-8B-Instruct', 'Qwen2.5-72B-Instruct', 'gpt-4o'];
const map = new Map([['Llama-3.1-8B', 'meta-llama/Llama-3.1-8B-Instruct']]);

describe('name assignments', () => {
  it('labels automatic matches exact, normalised or from the map, and leaves the rest unmatched', () => {
    expect(autoAssign(ours, theirs, map)).toEqual([
      {
        ours: 'Llama-3.1-8B',
        theirs: 'Meta-Llama-3.1-8B-Instruct',
        how: 'map',
        via: 'meta-llama/Llama-3.1-8B-Instruct',
      },
      { ours: 'Qwen2.5-72B', theirs: 'Qwen2.5-72B-Instruct', how: 'normalised' },
      { ours: 'gpt-4o', theirs: 'gpt-4o', how: 'exact' },
      { ours: 'OLMo-2-7B', theirs: null, how: 'none' },
    ]);
  });

  it('lets the user change or clear one row', () => {
    let list = autoAssign(ours, theirs);
    list = reassign(list, 'OLMo-2-7B', 'GPT-4o');
    expect(list[3]).toEqual({ ours: 'OLMo-2-7B', theirs: 'GPT-4o', how: 'manual' });
    list = reassign(list, 'gpt-4o', null);
    expect(list[2]).toEqual({ ours: 'gpt-4o', theirs: null, how: 'none' });
    expect(toMatches(list).map((m) => [m.ours, m.theirs])).toEqual([
      ['Llama-3.1-8B', 'Meta-Llama-3.1-8B-Instruct'],
      ['Qwen2.5-72B', 'Qwen2.5-72B-Instruct'],
      ['OLMo-2-7B', 'GPT-4o'],
    ]);
  });

  it('finds external names used twice', () => {
    const list = reassign(autoAssign(ours, theirs), 'OLMo-2-7B', 'gpt-4o');
    expect([...duplicateMatches(list)]).toEqual(['gpt-4o']);
  });
});
