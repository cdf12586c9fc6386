import { describe, expect, it } from 'vitest';
import { throttle } from './throttle';

describe('throttle', () => {
  it('sends at most one value per interval, and the newest on flush', () => {
    let t = 0;
    const sent: number[] = [];
    const th = throttle(
      (v: number) => sent.push(v),
      100,
      () => t,
    );
    th.push(1); // sent at once
    t = 50;
    th.push(2);
    th.push(3); // held (newest wins)
    t = 120;
    th.push(4); // interval passed: sent
    t = 130;
    th.push(5);
    th.flush();
    th.flush(); // nothing pending
    expect(sent).toEqual([1, 4, 5]);
  });
});
