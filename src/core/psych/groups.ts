/** Groups of LLMs for DIF, read from a `model,group` CSV. */
import { DataError } from '../data/types';

/** One CSV line split into fields (double quotes, doubled inner quotes). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let p = 0; p < line.length; p++) {
    const ch = line[p];
    if (q) {
      if (ch === '"' && line[p + 1] === '"') {
        cur += '"';
        p++;
      } else if (ch === '"') q = false;
      else cur += ch;
    } else if (ch === '"') q = true;
    else if (ch === ',') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/**
 * Parse `model,group` (header required; the columns may be named model/llm and
 * group, in any order; extra columns are ignored). Returns model → group in
 * file order. An LLM listed twice with different groups is an error.
 */
export function parseGroups(text: string, file = 'groups.csv'): Map<string, string> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = fields(lines[0] ?? '').map((h) => h.toLowerCase());
  const mc = head.findIndex((h) => h === 'model' || h === 'llm');
  const gc = head.indexOf('group');
  if (mc < 0 || gc < 0)
    throw new DataError('missing header', file, 1, undefined, 'columns model,group');
  const out = new Map<string, string>();
  for (let r = 1; r < lines.length; r++) {
    if (!lines[r].trim()) continue;
    const f = fields(lines[r]);
    const m = f[mc] ?? '';
    const g = f[gc] ?? '';
    if (!m || !g) throw new DataError('empty model or group', file, r + 1);
    const prev = out.get(m);
    if (prev !== undefined && prev !== g)
      throw new DataError(`model ${m} is in groups ${prev} and ${g}`, file, r + 1);
    out.set(m, g);
  }
  if (new Set(out.values()).size < 2)
    throw new DataError('DIF needs at least two groups', file, undefined, undefined, '≥ 2 groups');
  return out;
}

/** The group of each LLM of a data set ('' when not listed) and the group names in file order. */
export function groupsOf(
  llmIds: string[],
  map: Map<string, string>,
): { group: string[]; names: string[] } {
  const group = llmIds.map((id) => map.get(id) ?? '');
  const present = new Set(group);
  const names = [...new Set(map.values())].filter((g) => present.has(g));
  return { group, names };
}
