// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterNextFrame, nextCount, useGradual } from './useGradual';
import { once } from './views/ItemDetail';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('nextCount', () => {
  it('adds a step, never past the target, and always moves', () => {
    expect(nextCount(20, 300, 40)).toBe(60);
    expect(nextCount(280, 300, 40)).toBe(300);
    expect(nextCount(3, 10, 0)).toBe(4);
  });
});

describe('once', () => {
  it('makes its value on first use only', () => {
    const make = vi.fn(() => ({ v: 1 }));
    const get = once(make);
    expect(make).not.toHaveBeenCalled();
    expect(get()).toBe(get());
    expect(make).toHaveBeenCalledTimes(1);
  });
});

function Count({ of, target, atLeast }: { of: unknown; target: number; atLeast?: number }) {
  return createElement('span', null, String(useGradual(of, target, 20, 40, atLeast)));
}

describe('useGradual', () => {
  beforeEach(() =>
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
    }),
  );
  afterEach(() => vi.useRealTimers());

  const mount = () => {
    const host = document.createElement('div');
    const root = createRoot(host);
    const show = (props: { of: unknown; target: number; atLeast?: number }) =>
      act(() => root.render(createElement(Count, props)));
    /** One frame and the timer after it. */
    const frame = () => act(() => vi.advanceTimersByTime(20));
    return { host, show, frame };
  };

  it('draws the first rows at once, then a step more after each frame', () => {
    const { host, show, frame } = mount();
    const rows = ['a'];
    show({ of: rows, target: 100 });
    expect(host.textContent).toBe('20');
    frame();
    expect(host.textContent).toBe('60');
    frame();
    expect(host.textContent).toBe('100');
    frame();
    expect(host.textContent).toBe('100');
  });

  it('starts again from the first rows when the rows change, and reaches a row asked for at once', () => {
    const { host, show, frame } = mount();
    show({ of: ['a'], target: 300 });
    frame();
    frame();
    expect(host.textContent).toBe('100');
    const other = ['b'];
    show({ of: other, target: 300 });
    expect(host.textContent).toBe('20');
    show({ of: other, target: 300, atLeast: 150 });
    expect(host.textContent).toBe('150');
    show({ of: other, target: 10 });
    expect(host.textContent).toBe('10');
  });
});

describe('afterNextFrame', () => {
  beforeEach(() =>
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
    }),
  );
  afterEach(() => vi.useRealTimers());

  it('runs after a frame, in a task of its own, unless cancelled', () => {
    const fn = vi.fn();
    afterNextFrame(fn);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20);
    expect(fn).toHaveBeenCalledTimes(1);
    const cancel = afterNextFrame(fn);
    cancel();
    vi.advanceTimersByTime(50);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
