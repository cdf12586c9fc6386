/**
 * Independent jobs run `width` at a time, results in job order. The first
 * failure stops new jobs from starting and is what the run rejects with; jobs
 * already running finish on their own (they share the caller's abort signal).
 */
export async function runPool<T>(
  n: number,
  width: number,
  job: (q: number) => Promise<T>,
): Promise<T[]> {
  const out = new Array<T>(n);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < n) {
      const q = next++;
      try {
        out[q] = await job(q);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const lanes = Array.from({ length: Math.max(1, Math.min(width, n)) }, lane);
  await Promise.all(lanes);
  return out;
}
