import { describe, expect, it } from 'vitest';
import type { ItemFlag } from '../../../core/bank/flags';
import { filterByFlag, flaggedCsv, flagLabels, flagTitle, indexFlags, matchesFlag } from './flags';

const flag = (item: string, kind: ItemFlag['flag'], reason = 'why'): ItemFlag => ({
  item,
  benchmark: 'b',
  key: 'A',
  flag: kind,
  option: '',
  reason,
  evidence: 'numbers',
});

const idx = indexFlags([
  flag('q1', 'non-discriminating'),
  flag('q1', 'no-informative-distractor'),
  flag('q3', 'possibly-mis-keyed', 'Option C, "maybe"'),
]);
const rows = [{ id: 'q1' }, { id: 'q2' }, { id: 'q3' }];

describe('item flags', () => {
  it('indexes flags by item and counts them by kind', () => {
    expect(idx.byItem.get('q1')).toHaveLength(2);
    expect(idx.byItem.has('q2')).toBe(false);
    expect(idx.counts.get('possibly-mis-keyed')).toBe(1);
  });

  it('filters rows by any flag, no flag or one kind', () => {
    const ids = (f: Parameters<typeof filterByFlag>[2]) =>
      filterByFlag(rows, idx, f).map((r) => r.id);
    expect(ids('all')).toEqual(['q1', 'q2', 'q3']);
    expect(ids('any')).toEqual(['q1', 'q3']);
    expect(ids('none')).toEqual(['q2']);
    expect(ids('non-discriminating')).toEqual(['q1']);
    expect(ids('saturated')).toEqual([]);
    expect(matchesFlag(undefined, 'any')).toBe(false);
  });

  it('labels flags briefly, with reason and evidence in the title', () => {
    expect(flagLabels(idx.byItem.get('q1'))).toBe('non-discriminating; no informative distractor');
    expect(flagLabels(undefined)).toBe('');
    expect(flagTitle(idx.all[0])).toBe('why\nEvidence: numbers');
  });

  it('exports one CSV row per flag of the chosen kind, quoting where needed', () => {
    const all = flaggedCsv(idx).trim().split('\r\n');
    expect(all[0]).toBe('item,benchmark,key,flag,option,reason,evidence');
    expect(all).toHaveLength(4);
    expect(all[3]).toBe('q3,b,A,possibly-mis-keyed,,"Option C, ""maybe""",numbers');
    expect(flaggedCsv(idx, 'possibly-mis-keyed').trim().split('\r\n')).toHaveLength(2);
    expect(flaggedCsv(idx, 'none').trim().split('\r\n')).toHaveLength(1);
  });
});
