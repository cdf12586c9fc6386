/**
 * `llm-nrm evaluate`: the paper's evaluation runs from the command line, writing
 * the same numbers as the core functions return (CSV). Subcommands: cv
 * (Table 1), external (Table 2), wrong (Table 3), info (Fig. 2a/2b), calibrate
 * (Fig. 3b), compress (Fig. 3a): one file each in evaluate/.
 */
import { UsageError } from './args';
import { compressCommand } from './compress';
import { calibrateCommand } from './evaluate/calibrate';
import { cvCommand } from './evaluate/cv';
import { externalCommand } from './evaluate/external';
import { infoCommand } from './evaluate/info';
import { EVALUATE_USAGE } from './evaluate/shared';
import { wrongCommand } from './evaluate/wrong';

export { EVALUATE_USAGE };

const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  cv: cvCommand,
  external: externalCommand,
  wrong: wrongCommand,
  info: infoCommand,
  calibrate: calibrateCommand,
  compress: compressCommand,
};

export async function evaluateCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run)
    throw new UsageError(
      `${sub ? `unknown evaluate subcommand "${sub}"` : 'evaluate needs a subcommand'} (${Object.keys(SUBCOMMANDS).join(', ')}).\n\n${EVALUATE_USAGE}`,
    );
  return run(rest);
}
