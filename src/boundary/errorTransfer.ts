import * as Comlink from 'comlink';

/** Fields of a DataError (and of any error) that the user needs, beyond the message. */
const EXTRA_FIELDS = ['file', 'line', 'column', 'expected', 'code'] as const;

type Serialized = { isError: boolean; value: Record<string, unknown> };

/**
 * Comlink sends thrown errors as {message, name, stack} only, which would drop a
 * DataError's file, line and column. Both sides call this once at start-up so
 * those fields survive the trip; comlink's own handler still does the rest.
 */
export function keepErrorFields(): void {
  const base = Comlink.transferHandlers.get('throw') as
    Comlink.TransferHandler<{ value: unknown }, Serialized> | undefined;
  if (!base || (base as { keepsFields?: boolean }).keepsFields) return;
  const handler: Comlink.TransferHandler<{ value: unknown }, Serialized> & {
    keepsFields: boolean;
  } = {
    keepsFields: true,
    canHandle: (v): v is { value: unknown } => base.canHandle(v),
    serialize(thrown) {
      const [out, transfer] = base.serialize(thrown);
      const err = thrown.value;
      if (out.isError && err && typeof err === 'object') {
        for (const f of EXTRA_FIELDS) {
          const v = (err as Record<string, unknown>)[f];
          if (typeof v === 'string' || typeof v === 'number') out.value[f] = v;
        }
      }
      return [out, transfer];
    },
    deserialize: (s) => base.deserialize(s),
  };
  Comlink.transferHandlers.set('throw', handler);
}
