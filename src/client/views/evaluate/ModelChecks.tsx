import type { ModelType } from '../../../core/model/types';
import { Check } from '../../components/Field';

/** Which models can be picked, which are, and where a new pick goes. */
export interface ModelPicks {
  all: readonly ModelType[];
  picked: readonly ModelType[];
  onChange: (models: ModelType[]) => void;
}

/** Checkboxes for picking several models, with All / None. */
export function ModelChecks({ legend, all, picked, onChange }: ModelPicks & { legend: string }) {
  const toggle = (m: ModelType, on: boolean) =>
    onChange(all.filter((x) => (x === m ? on : picked.includes(x))));
  return (
    <fieldset className="model-checks">
      <legend>{legend}</legend>
      {all.map((m) => (
        <Check key={m} checked={picked.includes(m)} onChange={(on) => toggle(m, on)}>
          {m}
        </Check>
      ))}
      <span className="row">
        <button type="button" className="small" onClick={() => onChange([...all])}>
          All
        </button>
        <button type="button" className="small" onClick={() => onChange([])}>
          None
        </button>
      </span>
    </fieldset>
  );
}
