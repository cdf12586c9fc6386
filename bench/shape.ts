/** A data shape "JxI" (LLMs × items) as the benches take it, e.g. `189x5000`. */
export function parseShape(s: string): { J: number; I: number } {
  const m = /^(\d+)\s*[x×]\s*(\d+)$/.exec(s.trim());
  if (!m) throw new Error(`--shape: expected JxI such as 189x5000, got "${s}"`);
  return { J: Number(m[1]), I: Number(m[2]) };
}
