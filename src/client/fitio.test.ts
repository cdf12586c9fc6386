import { describe, expect, it } from 'vitest';
import { alignFit, FitFileError, looksLikeFitJson, parseFitJson } from './fitio';
import { tinyDataset, tinyFit } from '../core/testing/tiny';

describe('fit.json import', () => {
  it('round-trips through JSON and restores the data order by id', () => {
    const fit = tinyFit();
    const shuffled = { ...fit, llms: [...fit.llms].reverse(), items: [...fit.items].reverse() };
    const text = JSON.stringify(shuffled);
    expect(looksLikeFitJson('x.fit.json', text)).toBe(true);
    const back = alignFit(parseFitJson(text, 'x.json'), tinyDataset(), 'x.json');
    expect(back.llms.map((l) => l.id)).toEqual(['big', 'mid', 'small']);
    expect(back.items.map((i) => i.id)).toEqual(['q1', 'q2', 'q3']);
    expect(back.items[0].a).toEqual(fit.items[0].a);
  });

  it('names what does not match', () => {
    const fit = tinyFit();
    fit.items[2] = { ...fit.items[2], id: 'other' };
    expect(() => alignFit(fit, tinyDataset(), 'f.json')).toThrow(
      /1 items of the data are not in the fit \("q3"\); 1 items of the fit are not in the data \("other"\)/,
    );
  });

  it('rejects a key that disagrees with the data', () => {
    const fit = tinyFit();
    fit.items[0] = { ...fit.items[0], key: 'B' };
    expect(() => alignFit(fit, tinyDataset(), 'f.json')).toThrow(FitFileError);
  });

  it('rejects files that are not fit.json', () => {
    expect(() => parseFitJson('{', 'a.json')).toThrow(/not valid JSON/);
    expect(() => parseFitJson('{"schema":"x"}', 'a.json')).toThrow(/not a fit.json/);
    expect(looksLikeFitJson('a.jsonl', '{"schema":"llm-nrm-fit/1"}')).toBe(false);
  });
});
