/**
 * Passes at most one value every `ms` milliseconds to `send`, always the newest,
 * so a chatty producer (a parser reporting every chunk) costs the UI ~10 redraws
 * a second. `flush` sends the pending value at once (call it when work ends).
 */
export function throttle<T>(send: (v: T) => void, ms = 100, now: () => number = Date.now) {
  let last = -Infinity;
  let pending: { v: T } | null = null;
  return {
    push(v: T): void {
      const t = now();
      if (t - last >= ms) {
        last = t;
        pending = null;
        send(v);
      } else {
        pending = { v };
      }
    },
    flush(): void {
      if (pending) {
        const { v } = pending;
        pending = null;
        last = now();
        send(v);
      }
    },
  };
}
