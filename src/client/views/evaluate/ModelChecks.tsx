import type { ModelType } from '../../../core/model/types';
import { Check } from '../../components/Field';

/** Checkboxes for picking several models, with All / None. */
export function ModelChecks({
  legend,
  all,
  picked,
  onChange,
}: {
  legend: string;
  all: readonly ModelType[];
  picked: readonly ModelType[];
  onChange: (models: ModelType[]) => void;
}) {
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
