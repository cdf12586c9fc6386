import { describe, expect, it } from 'vitest';
import { bankFromFit } from '../../../core/bank/bank';
import { tinyFit } from '../../../core/testing/tiny';
import type { NewDataInfo, ScoreResult } from '../../../shared/bankProtocol';
import { bankReducer, initialBankState, type BankUiState } from './store';

const bank = bankFromFit(tinyFit(), { dataFiles: [] });
const info = { files: ['new.csv'], llmIds: ['x'], seconds: 0 } as unknown as NewDataInfo;
const result: ScoreResult = { llms: [], notInBank: [], used: 3 };

describe('bankReducer', () => {
  it('tracks a task from start to done or error, and which task ran last', () => {
    let s = bankReducer(initialBankState, { type: 'start', task: 'cat' });
    expect(s.tasks.cat.state).toBe('running');
    expect(s.last).toBe('cat');
    s = bankReducer(s, { type: 'stage', task: 'cat', stage: 'half way' });
    expect(s.tasks.cat.stage).toBe('half way');
    s = bankReducer(s, { type: 'fail', task: 'cat', error: { title: 'T', message: 'M' } });
    expect(s.tasks.cat).toEqual({
      state: 'error',
      error: { title: 'T', message: 'M' },
      stage: null,
    });
    s = bankReducer(s, { type: 'stage', task: 'cat', stage: 'late' });
    expect(s.tasks.cat.stage).toBeNull();
    s = bankReducer(s, { type: 'cancelled', task: 'cat' });
    expect(s.tasks.cat.state).toBe('idle');
  });

  it('the hold-out makes its bank the one in use, with its scores', () => {
    const s = bankReducer(initialBankState, {
      type: 'heldOut',
      bank,
      label: 'demo',
      info,
      result,
    });
    expect(s.loaded?.bank).toBe(bank);
    expect(s.newData).toBe(info);
    expect(s.score).toEqual({ result, against: bank });
    expect(s.tasks.score.state).toBe('done');
  });

  it('a new bank drops results computed against the old one; new data drops scores', () => {
    const withResults: BankUiState = {
      ...initialBankState,
      score: { result, against: {} },
      selected: { items: [], range: [-2, 2], against: {} },
    };
    const s = bankReducer(withResults, { type: 'bankLoaded', bank, label: 'b.json' });
    expect(s.score).toBeNull();
    expect(s.selected).toBeNull();
    expect(s.tasks.bank.state).toBe('done');
    expect(bankReducer(s, { type: 'useFit' }).loaded).toBeNull();
    expect(bankReducer(withResults, { type: 'newData', info }).score).toBeNull();
  });
});
