import { useEffect, useState } from 'react';

/**
 * Runs `fn` in a task of its own after the next frame is drawn (a timer after
 * an animation frame), so work split over several calls never lands in one
 * long task or one frame. A hidden page draws no frames: there it is a timer.
 * Returns a cancel function.
 */
export function afterNextFrame(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined;
  const later = () => {
    timer = setTimeout(fn, 0);
  };
  if (typeof requestAnimationFrame === 'function' && !document.hidden)
    frame = requestAnimationFrame(later);
  else later();
  return () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** How many of `target` things to draw after `n` are drawn: one more step, never past it. */
export function nextCount(n: number, target: number, step: number): number {
  return Math.min(target, n + Math.max(1, step));
}

/**
 * How many of `target` things (rows of a table) to draw now: `first` at once,
 * then `step` more after each frame until all are drawn. A new `of` (other
 * rows: a search, a sort) starts again from `first`, so a change shows at once
 * however many rows follow. At least `atLeast` (a row the keyboard moved to).
 */
export function useGradual(
  of: unknown,
  target: number,
  first: number,
  step: number,
  atLeast = 0,
): number {
  const [state, setState] = useState({ of, n: Math.min(target, first) });
  const n = Math.min(target, Math.max(state.of === of ? state.n : first, atLeast));
  useEffect(() => {
    if (n >= target) return;
    return afterNextFrame(() => setState({ of, n: nextCount(n, target, step) }));
  }, [of, n, target, step]);
  return n;
}
