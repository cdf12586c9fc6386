import type { ModelType } from '../../../core/model/types';

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
        <label key={m} className="check">
          <input
            type="checkbox"
            checked={picked.includes(m)}
            onChange={(e) => toggle(m, e.target.checked)}
          />
          {m}
        </label>
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
