import { useEffect, useRef, type RefObject } from 'react';

/**
 * A ref that holds the latest `value` once each render that changed it has
 * committed: for callbacks that read the current value without being re-made.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  }, [value]);
  return ref;
}
