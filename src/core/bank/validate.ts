/** Checking a bank file before anything scores against it. */
import { MAX_OPTIONS, OPTION_LABELS } from '../data/types';
import { isBinary, MODEL_TYPES, type ModelType } from '../model/types';
import { GATE_FORMS, type GateForm } from '../model/gate';
import { BANK_SCHEMA, type ItemBank } from './bank';

/** A bank that cannot be used; `problems` lists every finding, the message the first few. */
export class BankError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    const shown = problems.slice(0, 8).map((p) => `  - ${p}`);
    if (problems.length > 8) shown.push(`  - … and ${problems.length - 8} more`);
    super(`${source}: not a usable item bank:\n${shown.join('\n')}`);
    this.name = 'BankError';
  }
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Validate parsed bank JSON and return it typed. Throws a BankError naming
 * every problem (with the item id and field) so a hand-edited or truncated
 * file is easy to repair.
 */
export function validateBank(json: unknown, source = 'bank'): ItemBank {
  assertBank(json, source);
  return json;
}

/** Throws a BankError listing every problem found unless `json` is an item bank. */
function assertBank(json: unknown, source: string): asserts json is ItemBank {
  const bad: string[] = [];
  if (!isObj(json)) throw new BankError(source, ['the file is not a JSON object']);
  if (json.schema !== BANK_SCHEMA) {
    const hint =
      json.schema === 'llm-nrm-fit/1' ? ' (this is a fit.json: run `llm-nrm bank save` on it)' : '';
    throw new BankError(source, [
      `schema is "${String(json.schema)}", expected "${BANK_SCHEMA}"${hint}`,
    ]);
  }
  const model = json.model as ModelType;
  if (!MODEL_TYPES.includes(model))
    bad.push(`model "${String(json.model)}" is not one of ${MODEL_TYPES.join(', ')}`);
  const Kmax = json.Kmax;
  if (!Number.isInteger(Kmax) || (Kmax as number) < 2 || (Kmax as number) > MAX_OPTIONS)
    bad.push(`Kmax is ${String(Kmax)}, expected an integer 2..${MAX_OPTIONS}`);
  const g = json.global;
  if (!isObj(g) || !isNum(g.w0) || !isNum(g.kappa) || g.kappa < 0)
    bad.push('global must hold finite w0 and kappa ≥ 0');
  if (json.gate !== undefined && !GATE_FORMS.includes(json.gate as GateForm))
    bad.push(`gate is ${JSON.stringify(json.gate)}, expected one of ${GATE_FORMS.join(', ')}`);
  if (!isObj(json.calibration) || !Array.isArray(json.calibration.llms))
    bad.push('calibration.llms is missing');
  const p = json.provenance;
  if (!isObj(p) || !Array.isArray(p.dataFiles) || typeof p.date !== 'string' || !isObj(p.settings))
    bad.push('provenance must hold dataFiles (array), date (string) and settings (object)');
  if (!Array.isArray(json.items) || json.items.length === 0) bad.push('items is missing or empty');
  else {
    const binary = MODEL_TYPES.includes(model) && isBinary(model);
    const seen = new Set<string>();
    json.items.forEach((it: unknown, i: number) => {
      const where = `items[${i}]`;
      if (!isObj(it)) return void bad.push(`${where} is not an object`);
      const id = it.id;
      const at = typeof id === 'string' ? `${where} ("${id}")` : where;
      if (typeof id !== 'string' || id === '') bad.push(`${where}: id must be a non-empty string`);
      else if (seen.has(id)) bad.push(`${at}: duplicate id`);
      else seen.add(id);
      const K = it.nOptions;
      if (!Number.isInteger(K) || (K as number) < 2 || (K as number) > (Kmax as number))
        return void bad.push(`${at}: nOptions is ${String(K)}, expected an integer 2..Kmax`);
      const k = OPTION_LABELS.indexOf(it.key as (typeof OPTION_LABELS)[number]);
      if (k < 0 || k >= (K as number))
        bad.push(`${at}: key "${String(it.key)}" is not one of the item's ${K} option labels`);
      if (!isNum(it.b)) bad.push(`${at}: b must be a finite number`);
      if (binary) {
        for (const f of ['slope', 'd'] as const)
          if (!isNum(it[f])) bad.push(`${at}: ${f} must be a finite number`);
        for (const f of ['g', 'u'] as const)
          if (!isNum(it[f]) || it[f] < 0 || it[f] > 1) bad.push(`${at}: ${f} must be in [0, 1]`);
      } else {
        for (const f of ['a', 'c'] as const) {
          const v = it[f];
          if (!Array.isArray(v) || v.length !== K || !v.every(isNum))
            bad.push(`${at}: ${f} must be ${K} finite numbers (one per option)`);
        }
      }
    });
  }
  if (bad.length > 0) throw new BankError(source, bad);
}
