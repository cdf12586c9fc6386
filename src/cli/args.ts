import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * A user mistake on the command line: printed without a stack trace, exit code
 * 2; `usage`, when given, is printed before the message.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** node:util parseArgs with errors turned into UsageError. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    const unknown = /^Unknown option '([^']+)'/.exec((e as Error).message)?.[1];
    const what = unknown ? `unknown flag ${unknown}` : (e as Error).message;
    throw new UsageError(`${what} (this command's flags are listed above)`, usage);
  }
}

export function num(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const x = Number(v);
  if (!Number.isFinite(x)) throw new UsageError(`--${name} expects a number, got "${v}".`);
  return x;
}

export function oneOf<T extends string>(
  v: string | undefined,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  if (v === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}; got "${v}".`);
  return v as T;
}
