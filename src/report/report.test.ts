import { beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../core/data/types';
import type { FitJson } from '../core/fit/types';
import { buildReport, REPORT_SECTIONS } from './build';
import { demoFit } from './testing';
import type { ReportProgress } from './types';

let ds: Dataset;
let fit: FitJson;
let html: string;
const progress: ReportProgress[] = [];

beforeAll(async () => {
  ({ ds, fit } = await demoFit());
  html = await buildReport(
    { ds, fit },
    { date: '2026-01-02', onProgress: (p) => progress.push(p) },
  );
}, 300_000);

/** The text of the element with this id (tags stripped). */
function sectionText(id: string): string {
  const m = html.match(new RegExp(`<section id="${id}"[\\s\\S]*?</section>`));
  return m ? m[0].replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ') : '';
}

describe('the demo report (18 LLMs × 345 items)', () => {
  it('has every section, in order, each with a reading', () => {
    let at = 0;
    for (const [id, title] of REPORT_SECTIONS) {
      const i = html.indexOf(`<section id="${id}"`);
      expect(i, id).toBeGreaterThan(at);
      at = i;
      expect(html).toContain(`<h2 id="${id}-h">${title.replace('\u2019', '\u2019')}</h2>`);
      expect(sectionText(id)).not.toBe('');
    }
    expect(html.match(/<p class="reading">/g)).toHaveLength(REPORT_SECTIONS.length);
  });

  it('needs no script and requests nothing', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import/);
    // Every link is to a place in the file.
    for (const m of html.matchAll(/href="([^"]*)"/g)) expect(m[1]).toMatch(/^#/);
  });

  it('gives the same bytes twice, and only the date line differs with another date', async () => {
    const again = await buildReport({ ds, fit }, { date: '2026-01-02' });
    expect(again).toBe(html);
    const other = await buildReport({ ds, fit }, { date: '2030-12-31' });
    const a = html.split('\n');
    const b = other.split('\n');
    expect(b).toHaveLength(a.length);
    const differ = a.flatMap((line, q) => (line === b[q] ? [] : [line]));
    expect(differ).toEqual(['<p class="date">Generated 2026-01-02</p>']);
  });

  it('stays a few hundred KB', () => {
    const bytes = Buffer.byteLength(html);
    expect(bytes).toBeGreaterThan(100_000);
    expect(bytes).toBeLessThan(700_000);
  });

  it('is accessible: headings in order, a title in every chart, header cells in every table', () => {
    const levels = [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
    expect(levels[0]).toBe(1);
    for (let q = 1; q < levels.length; q++)
      expect(levels[q]).toBeLessThanOrEqual(levels[q - 1] + 1);
    const svgs = [...html.matchAll(/<svg\b[^>]*>([\s\S]*?)<\/svg>/g)];
    expect(svgs.length).toBeGreaterThan(40);
    for (const s of svgs) {
      expect(s[0]).toMatch(/^<svg role="img"/);
      expect(s[1]).toMatch(/^<title>[^<]+<\/title><desc>[^<]+<\/desc>/);
    }
    const tables = [...html.matchAll(/<table\b[\s\S]*?<\/table>/g)];
    expect(tables.length).toBeGreaterThan(8);
    for (const t of tables) {
      expect(t[0]).toMatch(/<caption>[^<]+<\/caption>/);
      expect(t[0]).toMatch(/<thead><tr>(<th scope="col">[^<]*<\/th>)+<\/tr><\/thead>/);
    }
    expect(html).toMatch(/<html lang="en">/);
  });

  it('reads the data as they are: 18 LLMs, 345 items, 93 economics and 252 reading, none missing', () => {
    const t = sectionText('data');
    expect(t).toContain(
      'The data hold 18 LLMs answering 345 items from 2 benchmarks: naep-economics (93), naep-reading (252); items have 4 options each.',
    );
    expect(t).toContain('Of the 6,210 LLM–item cells, 0.0% are missing (6,210 observed).');
  });

  it('says the short fit did not converge, and how to reproduce it', () => {
    const t = sectionText('fit');
    expect(t).toContain('It did NOT converge. It reached its step cap of 150 steps');
    expect(t).toContain(
      'llm-nrm fit econ-reading.wide.csv --items econ-reading.items.csv --model llmnrm',
    );
  });

  it('ranks the LLMs best first by θ', () => {
    const m = html.match(/<section id="ranking"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/)!;
    const order = [...m[1].matchAll(/<tr><th scope="row">([^<]+)<\/th><td class="num">([^<]+)</g)];
    expect(order).toHaveLength(18);
    const thetas = order.map((r) => Number(r[2]));
    for (let q = 1; q < thetas.length; q++) expect(thetas[q]).toBeLessThanOrEqual(thetas[q - 1]);
  });

  it('marks the key of every flagged item in words, and draws its curves', () => {
    const articles = [...html.matchAll(/<article class="flagged"[\s\S]*?<\/article>/g)];
    expect(articles.length).toBeGreaterThan(0);
    expect(articles.length).toBeLessThanOrEqual(40);
    for (const a of articles) {
      expect(a[0]).toMatch(/\(key\)<\/strong>/);
      expect(a[0]).toMatch(/<svg role="img"/);
    }
  });

  it('reports progress per section, ending done', () => {
    expect(progress.map((p) => p.done)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(progress[progress.length - 1].stage).toBe('done');
  });

  it('refuses a fit of other data', async () => {
    const other = { ...fit, llms: fit.llms.slice(1) };
    await expect(buildReport({ ds, fit: other }, { date: '' })).rejects.toThrow(
      /not of this data set/,
    );
  });
});
