import { useEffect, useRef, useState } from 'react';

/**
 * `value`, passed on at most once every `ms` (the latest one wins). For
 * pictures of a value that changes faster than anyone reads it, such as a
 * running fit's objective curve: each redraw is main-thread work.
 */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = Math.max(0, last.current + ms - Date.now());
    const timer = setTimeout(() => {
      last.current = Date.now();
      setShown(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return shown;
}
