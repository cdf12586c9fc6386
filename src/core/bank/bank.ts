/**
 * Item banks: a calibrated fit's item side, saved as versioned JSON so that new
 * LLMs can be scored, tested adaptively or compared later without refitting.
 * The bank keeps what scoring needs (item and global parameters, model type,
 * Kmax), where it came from (data files, date, settings) and the calibration
 * LLMs' results (their θ range is the bank's scale).
 */
import type { ItemText } from '../data/types';
import type { FitJson, FitSettings, ItemResult, LlmResult } from '../fit/types';
import type { Mode } from '../model/params';
import type { ModelType } from '../model/types';
import type { GateForm } from '../model/gate';

export const BANK_SCHEMA = 'llm-nrm-bank/1';

/** A bank item: the fit's item result, plus its texts when they were supplied. */
export interface BankItem extends ItemResult {
  question?: string;
  /** Option texts in label order. */
  options?: string[];
}

export interface BankProvenance {
  /** Data files the calibration fit read. */
  dataFiles: string[];
  /** ISO date the bank was made. */
  date: string;
  settings: FitSettings;
}

/** How the calibration fit went, and the LLMs it calibrated on. */
export interface BankCalibration {
  mode: Mode;
  converged: boolean;
  steps: number;
  objective: number;
  meanCrossEntropy: number;
  nCells: number;
  llms: LlmResult[];
}

/** The bank file (`bank.json`). Plain data: crosses the worker boundary. */
export interface ItemBank {
  schema: typeof BANK_SCHEMA;
  model: ModelType;
  Kmax: number;
  /** Fallback gate intercept and slope (0 for models without the gate), with SEs when known. */
  global: { w0: number; kappa: number; w0SE?: number; kappaSE?: number };
  /** The fallback gate's form (model/gate.ts), as the fit had it; absent: 'eq10' (older banks). */
  gate?: GateForm;
  items: BankItem[];
  calibration: BankCalibration;
  provenance: BankProvenance;
}

/**
 * A bank from a fit. `texts` (by item id) adds question and option texts, so
 * that a tiny benchmark exported from the bank can be administered as is.
 */
export function bankFromFit(
  fit: FitJson,
  provenance: { dataFiles: string[]; date?: string; settings?: FitSettings },
  texts?: ReadonlyMap<string, ItemText | null>,
): ItemBank {
  if (fit.schema !== 'llm-nrm-fit/1')
    throw new Error(`Not an llm-nrm fit (schema "${String(fit.schema)}").`);
  const items: BankItem[] = fit.items.map((it) => {
    const t = texts?.get(it.id);
    const copy: BankItem = { ...it };
    if (it.a) copy.a = [...it.a];
    if (it.c) copy.c = [...it.c];
    if (t) {
      copy.question = t.question;
      copy.options = t.options.slice(0, it.nOptions);
    }
    return copy;
  });
  return {
    schema: BANK_SCHEMA,
    model: fit.model,
    Kmax: fit.Kmax,
    global: { ...fit.global },
    ...(fit.gate ? { gate: fit.gate } : {}),
    items,
    calibration: {
      mode: fit.mode,
      converged: fit.converged,
      steps: fit.steps,
      objective: fit.objective,
      meanCrossEntropy: fit.meanCrossEntropy,
      nCells: fit.nCells,
      llms: fit.llms.map((l) => ({ ...l, delta: [...l.delta], rho: [...l.rho] })),
    },
    provenance: {
      dataFiles: [...provenance.dataFiles],
      date: provenance.date ?? new Date().toISOString(),
      settings: { ...(provenance.settings ?? fit.settings) },
    },
  };
}

/**
 * The bank as a FitJson, so everything that reads a fit (scoreLlms, item
 * information, flags) reads a bank. Fields a bank does not keep (trace,
 * timings, engine) are empty.
 */
export function bankAsFit(bank: ItemBank): FitJson {
  const cal = bank.calibration;
  const items: ItemResult[] = bank.items.map((it) => {
    const rest: BankItem = { ...it };
    delete rest.question;
    delete rest.options;
    return rest;
  });
  return {
    schema: 'llm-nrm-fit/1',
    model: bank.model,
    mode: cal.mode,
    optimizer: bank.provenance.settings.optimizer,
    objective: cal.objective,
    crossEntropy: NaN,
    penalty: NaN,
    prior: NaN,
    meanCrossEntropy: cal.meanCrossEntropy,
    nCells: cal.nCells,
    steps: cal.steps,
    passes: 0,
    converged: cal.converged,
    seconds: 0,
    engine: 'fused',
    engineReason: 'item bank',
    settings: bank.provenance.settings,
    Kmax: bank.Kmax,
    ...(bank.gate ? { gate: bank.gate } : {}),
    llms: cal.llms,
    items,
    global: bank.global,
    notes: [],
    trace: [],
  };
}

/** Item texts of a bank, by id (items without texts are left out). */
export function bankTexts(bank: ItemBank): Map<string, ItemText> {
  const out = new Map<string, ItemText>();
  for (const it of bank.items)
    if (it.question !== undefined || it.options !== undefined)
      out.set(it.id, { question: it.question ?? '', options: it.options ?? [] });
  return out;
}
