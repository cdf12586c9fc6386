import { describe, expect, it } from 'vitest';
import { bankFromFit } from '../../../core/bank/bank';
import { tinyFit } from '../../../core/testing/tiny';
import type { NewDataInfo, ScoreResult } from '../../../boundary/bankProtocol';
import type { TaskEvent } from '../../tasks';
import { bankReducer, initialBankState, type BankUiState } from './store';

const bank = bankFromFit(tinyFit(), { dataFiles: [] });
const info = { files: ['new.csv'], llmIds: ['x'], seconds: 0 } as unknown as NewDataInfo;
const result: ScoreResult = { llms: [], notInBank: [], used: 3 };

describe('bankReducer', () => {
  it('tracks a task from start to done or error, and which task ran last', () => {
    const on = (s: BankUiState, event: TaskEvent) =>
      bankReducer(s, { type: 'task', task: 'cat', event });
    let s = on(initialBankState, { type: 'start' });
    expect(s.tasks.cat.status).toBe('running');
    expect(s.last).toBe('cat');
    s = on(s, { type: 'stage', stage: 'half way' });
    expect(s.tasks.cat.stage).toBe('half way');
    s = on(s, { type: 'failed', error: { title: 'T', message: 'M' } });
    expect(s.tasks.cat).toEqual({
      status: 'error',
      error: { title: 'T', message: 'M' },
      stage: null,
      progress: null,
    });
    s = on(s, { type: 'stage', stage: 'late' });
    expect(s.tasks.cat.stage).toBeNull();
    s = on(s, { type: 'cancelled', notice: 'Cancelled.' });
    expect(s.tasks.cat.status).toBe('cancelled');
    expect(s.tasks.cat.stage).toBe('Cancelled.');
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
    expect(s.tasks.score.status).toBe('done');
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
    expect(s.tasks.bank.status).toBe('done');
    expect(bankReducer(s, { type: 'useFit' }).loaded).toBeNull();
    expect(bankReducer(withResults, { type: 'newData', info }).score).toBeNull();
  });
});
