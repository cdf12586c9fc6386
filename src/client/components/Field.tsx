import { useId, type ReactElement, cloneElement } from 'react';

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
