import { describe, expect, it } from 'vitest';
import { parseBudgets, parseInteger, parseShare, parseSizes, pickedModels } from './options';

describe('Evaluate field parsing', () => {
  it('reads whole numbers within bounds and names the field otherwise', () => {
    expect(parseInteger(' 5 ', 'Folds', 2)).toBe(5);
    expect(() => parseInteger('1', 'Folds', 2)).toThrow(
      'Folds must be a whole number ≥ 2 (got "1").',
    );
    expect(() => parseInteger('2.5', 'Folds', 2)).toThrow('Folds');
    expect(() => parseInteger('', 'Seed', 0)).toThrow('Seed');
    expect(() => parseInteger('11', 'Draws', 1, 10)).toThrow('from 1 to 10');
  });

  it('reads shares strictly inside (0, 1)', () => {
    expect(parseShare('0.25', 'Held-out share')).toBe(0.25);
    expect(() => parseShare('1', 'Held-out share')).toThrow('between 0 and 1');
    expect(() => parseShare('x', 'Held-out share')).toThrow();
  });

  it('reads budgets and fleet sizes as sorted distinct lists', () => {
    expect(parseBudgets('20, 5 10,5')).toEqual([5, 10, 20]);
    expect(() => parseBudgets('5, 0')).toThrow('Each item budget');
    expect(() => parseBudgets(' , ')).toThrow('at least one value');
    expect(parseSizes('all, 10 5')).toEqual([5, 10, Infinity]);
    expect(parseSizes('ALL')).toEqual([Infinity]);
    expect(() => parseSizes('1')).toThrow('Each fleet size');
  });

  it('keeps picked models in the listed order and needs one', () => {
    expect(pickedModels(['2pl', 'llmnrm'], ['llmnrm', 'nrm-soft', '2pl'])).toEqual([
      'llmnrm',
      '2pl',
    ]);
    expect(() => pickedModels([], ['llmnrm'])).toThrow('Pick at least one model.');
  });
});
