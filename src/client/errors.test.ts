import { describe, expect, it } from 'vitest';
import { DataError } from '../core/data/types';
import { toUiError } from './errors';

describe('toUiError', () => {
  it('keeps file, line and column apart from the message', () => {
    const e = new DataError('not a number: "zero"', 'bad.csv', 4, 'C', 'a probability');
    expect(toUiError(e, 'Could not load')).toEqual({
      title: 'Could not load',
      message: 'not a number: "zero" (expected a probability)',
      file: 'bad.csv',
      line: 4,
      column: 'C',
    });
  });

  it('passes other errors through', () => {
    expect(toUiError(new Error('boom'), 'T')).toMatchObject({ message: 'boom', file: undefined });
    expect(toUiError('text', 'T')).toEqual({ title: 'T', message: 'text' });
  });
});
