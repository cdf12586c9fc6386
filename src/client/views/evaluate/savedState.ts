import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

const saved = new Map<string, unknown>();

/**
 * useState whose value outlives the component: the Evaluate tab's settings and
 * inputs survive switching tabs (the tab unmounts) for the rest of the session.
 */
export function useSavedState<T>(
  key: string,
  initial: T | (() => T),
): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(() =>
    saved.has(key)
      ? (saved.get(key) as T)
      : typeof initial === 'function'
        ? (initial as () => T)()
        : initial,
  );
  useEffect(() => {
    saved.set(key, value);
  }, [key, value]);
  return [value, setValue];
}
