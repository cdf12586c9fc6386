import { useId, useState } from 'react';
import { parsePriorOverride, PRIOR_GROUPS, type PriorOverride } from '../../core/model/hprior';

/** The override as the CLI's `--prior` text (a=1,c=3,logS=0.3). */
export function priorText(p: PriorOverride | undefined): string {
  return Object.entries(p ?? {})
    .map(([g, sd]) => `${g}=${sd}`)
    .join(',');
}

/** Parses the field's text: the override (undefined when empty) or the message to show. */
export function readPriorText(
  text: string,
): { ok: true; prior: PriorOverride | undefined } | { ok: false; error: string } {
  try {
    const prior = parsePriorOverride(text);
    return { ok: true, prior: Object.keys(prior).length ? prior : undefined };
  } catch (e) {
    return { ok: false, error: (e as Error).message.replace(/^--prior:\s*/, '') };
  }
}

/**
 * Fixed prior sds for some parameter groups, in the CLI's `--prior` form;
 * empty keeps every scale learned from the data. A bad entry is named at
 * once and keeps the last good override (the parent refuses to fit meanwhile).
 */
export function PriorField({
  value,
  disabled,
  onChange,
  onValidity,
}: {
  value: PriorOverride | undefined;
  disabled: boolean;
  onChange: (p: PriorOverride | undefined) => void;
  /** Told the field's error after each edit: null when its text is a valid override. */
  onValidity: (error: string | null) => void;
}) {
  const id = useId();
  const [text, setText] = useState(() => priorText(value));
  const [error, setError] = useState<string | null>(null);
  // Settings set from outside (a restored session's interrupted fit) show in
  // the field; the field's own edits come back equal to its text and keep it.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    const typed = readPriorText(text);
    if (!typed.ok || priorText(typed.prior) !== priorText(value)) {
      setText(priorText(value));
      setError(null);
    }
  }
  const edit = (t: string) => {
    setText(t);
    const r = readPriorText(t);
    setError(r.ok ? null : r.error);
    onValidity(r.ok ? null : r.error);
    if (r.ok) onChange(r.prior);
  };
  return (
    <div className="field prior-field">
      <label htmlFor={id}>Prior sds (override)</label>
      <input
        id={id}
        type="text"
        value={text}
        placeholder="the default's, e.g. a=1,c=3,rho=1"
        spellCheck={false}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-help`}
        onChange={(e) => edit(e.target.value)}
      />
      {error ? (
        <p id={`${id}-help`} className="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p id={`${id}-help`} className="muted small">
          {disabled
            ? 'Paper mode uses eq. 15 as written, without these priors.'
            : `group=sd pairs, comma-separated; groups: ${PRIOR_GROUPS.join(', ')}. The rest keep the default's: on soft data a 2, c 6, logS 0.3 fixed and delta, rho learned; on one-hot data all learned.`}
        </p>
      )}
    </div>
  );
}
