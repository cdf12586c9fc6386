import { useId, type ReactElement, type ReactNode, cloneElement } from 'react';

/**
 * A label above its control, tied by id (not by nesting, so a select's
 * accessible name is the label alone, not the label plus its current option).
 */
export function Field({
  label,
  children,
}: {
  label: string;
  children: ReactElement<{ id?: string }>;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}

/**
 * A labelled number input; `onChange` gets its text as typed (the caller parses it, now or
 * when a run starts).
 */
export function NumberField(props: {
  label: string;
  min?: number;
  step?: number | 'any';
  placeholder?: string;
  disabled?: boolean;
  value: string | number;
  onChange: (v: string) => void;
}) {
  return (
    <Field label={props.label}>
      <input
        type="number"
        min={props.min}
        step={props.step}
        placeholder={props.placeholder}
        disabled={props.disabled}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </Field>
  );
}

/** A checkbox with its label after it. */
export function Check(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.children}
    </label>
  );
}
