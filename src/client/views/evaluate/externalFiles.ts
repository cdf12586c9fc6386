/**
 * Reading external scores and name maps for the external-validity run. The
 * parsers (and papaparse) load on first use, so the page does not carry them.
 */
import type { ExternalScore } from '../../../core/eval/external';

export interface ScoresFile {
  file: string;
  /** What the scores are, for axis labels. */
  label: string;
  list: ExternalScore[];
}

export interface MapFile {
  file: string;
  /** Our name → their name. */
  entries: [string, string][];
}

/** The demo's external scores (LMArena text, 2025-08-04) and name map (NAEP names → HF ids). */
export const ARENA_DEMO = {
  scores: 'arena/lmarena_text_2025-08-04.csv',
  map: 'models.csv',
};

const parsers = () => import('../../../core/eval/external');

function labelFor(file: string, header: string): string {
  return /(^|,)\s*arena_score\s*(,|$)/.test(header) ? 'Arena score' : `score (${file})`;
}

export async function scoresFromText(text: string, file: string): Promise<ScoresFile> {
  const { parseScores } = await parsers();
  const header = text.split(/\r?\n/, 1)[0];
  return { file, label: labelFor(file, header), list: parseScores(text, { file }) };
}

export async function mapFromText(text: string, file: string): Promise<MapFile> {
  const { parseNameMap } = await parsers();
  return { file, entries: [...parseNameMap(text, file)] };
}

export const readScores = async (f: File) => scoresFromText(await f.text(), f.name);
export const readMap = async (f: File) => mapFromText(await f.text(), f.name);

async function fetchDemo(path: string): Promise<string> {
  const url = new URL(`${import.meta.env.BASE_URL}demo/${path}`, document.baseURI);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${path}: could not fetch (${res.status} ${res.statusText})`);
  return res.text();
}

/** Fetches the Arena demo scores and the demo name map. */
export async function loadArenaDemo(): Promise<{ scores: ScoresFile; map: MapFile }> {
  const [scores, map] = await Promise.all([
    fetchDemo(ARENA_DEMO.scores).then((t) => scoresFromText(t, 'lmarena_text_2025-08-04.csv')),
    fetchDemo(ARENA_DEMO.map).then((t) => mapFromText(t, 'models.csv')),
  ]);
  return { scores, map };
}
