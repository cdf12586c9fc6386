/**
 * The web-standard globals that browsers, workers and Node 18+ all have, and the
 * only ones the core may use. The core's tsconfig loads neither the DOM lib nor
 * Node's types (so a `document`, `self` or `process` in the core does not
 * compile); these declarations stand in for both, typed as narrowly as the core
 * uses them. Only the core tsconfig includes this file: the others load the real
 * declarations, and the two would clash.
 */

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

interface Performance {
  now(): number;
}
declare const performance: Performance;

declare function setTimeout(handler: (...args: never[]) => void, ms?: number): unknown;
declare function clearTimeout(id: unknown): void;
declare function atob(data: string): string;

interface TextDecodeOptions {
  stream?: boolean;
}
interface TextDecoder {
  decode(input?: ArrayBufferView | ArrayBuffer, options?: TextDecodeOptions): string;
}
declare const TextDecoder: {
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};
interface TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
}
declare const TextEncoder: { new (): TextEncoder };

interface Blob {
  readonly size: number;
  slice(start?: number, end?: number): Blob;
  arrayBuffer(): Promise<ArrayBuffer>;
}

interface ReadableStream<R> {
  getReader(): {
    read(): Promise<{ done: false; value: R } | { done: true; value?: undefined }>;
    releaseLock(): void;
  };
}
interface WritableStream<W> {
  getWriter(): {
    write(chunk: W): Promise<void>;
    close(): Promise<void>;
    releaseLock(): void;
  };
}

interface DOMException extends Error {
  readonly name: string;
}
declare const DOMException: { new (message?: string, name?: string): DOMException };
