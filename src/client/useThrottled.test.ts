// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useThrottled } from './useThrottled';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Show({ v }: { v: number }) {
  return createElement('span', null, String(useThrottled(v, 1000)));
}

describe('useThrottled', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes the latest value on at most once a second', () => {
    const host = document.createElement('div');
    const root = createRoot(host);
    act(() => root.render(createElement(Show, { v: 1 })));
    expect(host.textContent).toBe('1');
    act(() => vi.advanceTimersByTime(0)); // the first value is passed on at once
    for (const v of [2, 3, 4]) {
      act(() => root.render(createElement(Show, { v })));
      act(() => vi.advanceTimersByTime(100));
    }
    expect(host.textContent).toBe('1'); // 300 ms after the last pass: still held
    act(() => vi.advanceTimersByTime(700));
    expect(host.textContent).toBe('4'); // a second after it: the latest
    act(() => root.unmount());
  });
});
