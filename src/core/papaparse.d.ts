/**
 * The part of papaparse's API the core uses (parsing and writing strings). The
 * core's tsconfig maps 'papaparse' here because @types/papaparse references
 * Node's types (its stream parser), which the runtime-neutral core must not see.
 * The other tsconfigs use the real types, which accept every call made here.
 */
export interface ParseError {
  type: string;
  code: string;
  message: string;
  row?: number;
}
export interface ParseMeta {
  delimiter: string;
  linebreak: string;
  aborted: boolean;
  truncated: boolean;
  cursor: number;
  fields?: string[];
}
export interface ParseResult<T> {
  data: T;
  errors: ParseError[];
  meta: ParseMeta;
}
export interface ParseConfig<T> {
  delimiter?: string;
  newline?: string;
  skipEmptyLines?: boolean | 'greedy';
  step?: (results: ParseResult<T>) => void;
}
export interface UnparseConfig {
  newline?: string;
}
declare const Papa: {
  parse<T>(input: string, config: ParseConfig<T> & { step: (r: ParseResult<T>) => void }): void;
  parse<T>(input: string, config?: ParseConfig<T>): ParseResult<T[]>;
  unparse(data: unknown[][], config?: UnparseConfig): string;
};
export default Papa;
