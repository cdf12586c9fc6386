/**
 * bench/results.md holds one section per benchmark (Node, browser), each
 * between HTML comment markers, so either benchmark can rewrite its own section
 * and keep the other's.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

export type SectionId = 'node' | 'browser';
const ORDER: SectionId[] = ['node', 'browser'];
const TITLE = '# Benchmark results';

const open = (id: SectionId) => `<!-- bench:${id} -->`;
const close = (id: SectionId) => `<!-- /bench:${id} -->`;

/** The sections of an existing results file (a file without markers is one Node section). */
export function readSections(text: string): Partial<Record<SectionId, string>> {
  const out: Partial<Record<SectionId, string>> = {};
  let marked = false;
  for (const id of ORDER) {
    const a = text.indexOf(open(id));
    const b = text.indexOf(close(id));
    if (a >= 0 && b > a) {
      out[id] = text.slice(a + open(id).length, b).trim();
      marked = true;
    }
  }
  if (!marked) {
    const body = text.replace(/^# [^\n]*\n/, '').trim();
    if (body) out.node = body;
  }
  return out;
}

/** Replaces section `id` of `file` with `lines`, keeping the other section as it is. */
export function writeSection(file: string, id: SectionId, lines: string[]): void {
  const sections = readSections(existsSync(file) ? readFileSync(file, 'utf8') : '');
  sections[id] = lines.join('\n').trim();
  const parts = [TITLE, ''];
  for (const s of ORDER) {
    const body = sections[s];
    if (body) parts.push(open(s), '', body, '', close(s), '');
  }
  writeFileSync(file, parts.join('\n'));
}

export const today = () => new Date().toISOString().slice(0, 10);

/** The Node benchmark's fused ms per pass, kept for the browser section's Node-vs-browser ratio. */
export interface NodeFused {
  J: number;
  I: number;
  fusedMs: number;
  date: string;
}

const NODE_FUSED = 'node_modules/.cache/bench-browser/node-fused.json';

export function saveNodeFused(x: NodeFused): void {
  const all = readNodeFused();
  all[`${x.J}x${x.I}`] = x;
  mkdirSync('node_modules/.cache/bench-browser', { recursive: true });
  writeFileSync(NODE_FUSED, JSON.stringify(all));
}

function readNodeFused(): Record<string, NodeFused> {
  try {
    const x = JSON.parse(readFileSync(NODE_FUSED, 'utf8')) as Record<string, NodeFused>;
    return x && typeof x === 'object' ? x : {};
  } catch {
    return {};
  }
}

/** The last Node measurement at this shape, if any. */
export function loadNodeFused(J: number, I: number): NodeFused | null {
  return readNodeFused()[`${J}x${I}`] ?? null;
}
