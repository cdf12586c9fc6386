import { readFile } from 'node:fs/promises';
import { externalValidity, parseNameMap, parseScores } from '../../core/eval/external';
import { matchNames } from '../../core/eval/names';
import { num, parse, UsageError } from '../args';
import { readFit, writeOut } from '../io';
import { EVALUATE_USAGE, csv, fmt } from './shared';

/** `llm-nrm evaluate external`: Table 2: external validity of fitted θ against outside scores. */
export async function externalCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(
    argv,
    {
      map: { type: 'string' },
      'score-column': { type: 'string' },
      'name-column': { type: 'string' },
      bootstrap: { type: 'string' },
      seed: { type: 'string' },
      matches: { type: 'string' },
      out: { type: 'string' },
    },
    EVALUATE_USAGE,
  );
  if (positionals.length < 2)
    throw new UsageError(`Give one or more fit.json files and a scores CSV.\n\n${EVALUATE_USAGE}`);
  const scoresPath = positionals[positionals.length - 1];
  const fits = await Promise.all(positionals.slice(0, -1).map(readFit));
  let scores;
  let map: Map<string, string> | undefined;
  try {
    scores = parseScores(await readFile(scoresPath, 'utf8'), {
      scoreColumn: v['score-column'],
      nameColumn: v['name-column'],
      file: scoresPath,
    });
    if (v.map) map = parseNameMap(await readFile(v.map, 'utf8'), v.map);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const matching = matchNames(
    fits[0].llms.map((l) => l.id),
    scores.map((s) => s.name),
    map,
  );
  process.stderr.write(`matched ${matching.matches.length} of ${fits[0].llms.length} LLMs\n`);
  for (const m of matching.matches)
    process.stderr.write(`  ${m.ours} → ${m.theirs} (${m.how}${m.via ? ` via ${m.via}` : ''})\n`);
  if (matching.unmatchedOurs.length)
    process.stderr.write(`unmatched: ${matching.unmatchedOurs.join(', ')}\n`);
  if (v.matches)
    await writeOut(
      v.matches,
      csv([
        ...matching.matches.map((m) => ({
          ours: m.ours,
          theirs: m.theirs,
          how: m.how,
          via: m.via ?? '',
        })),
        ...matching.unmatchedOurs.map((o) => ({ ours: o, theirs: '', how: 'unmatched', via: '' })),
      ]),
    );
  const { rows } = externalValidity(fits, scores, matching.matches, {
    bootstrap: num(v.bootstrap, 'bootstrap', 1000),
    seed: num(v.seed, 'seed', 1),
  });
  await writeOut(v.out, csv(rows));
  for (const r of rows)
    process.stderr.write(
      `${r.measure === 'theta' ? `θ ${r.model}` : 'raw accuracy'}: Spearman ${fmt(r.spearman, 3)} ± ${fmt(r.bootSd, 3)} (n ${r.n})\n`,
    );
  return 0;
}
