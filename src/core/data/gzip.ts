/**
 * Gunzipping a byte stream with the runtime's built-in `DecompressionStream`
 * (browsers, workers and Node 18+ all have it; it is typed here because the
 * core's tsconfig has no DOM). The Node CLI passes `node:zlib` instead.
 */

interface TransformPair {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
}
type DecompressionCtor = new (format: 'gzip') => TransformPair;

/** Decompresses a gzip byte stream chunk by chunk. */
export async function* gunzipStream(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const Ctor = (globalThis as { DecompressionStream?: DecompressionCtor }).DecompressionStream;
  if (!Ctor) throw new Error('this runtime cannot decompress gzip (no DecompressionStream)');
  const ds = new Ctor('gzip');
  const writer = ds.writable.getWriter();
  const pump = (async () => {
    for await (const b of bytes) await writer.write(b);
    await writer.close();
  })();
  // A write waits for its chunk to be read, so the pump and the reader run together.
  pump.catch(() => undefined);
  const reader = ds.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    yield value;
  }
  await pump;
}
