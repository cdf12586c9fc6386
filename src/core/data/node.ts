/**
 * Node-only loading from disk (the browser bundle must not import this file).
 * Files are streamed with `fs.createReadStream`; a folder path is one model's
 * harness logs, the folder name being the model name.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { decodeChunks } from './decode.ts';
import { DEFAULT_CHUNK, loadSources, type ByteSource, type LoadOptions } from './load.ts';
import { DataError, type Dataset } from './types.ts';

const HEAD_BYTES = 64 * 1024;

function fileSource(file: string, size: number, chunk: number, model?: string): ByteSource {
  return {
    name: file,
    size,
    model,
    async head() {
      const fh = await open(file, 'r');
      try {
        const buf = Buffer.alloc(Math.min(HEAD_BYTES, size));
        const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
        return buf.subarray(0, bytesRead).toString('utf8');
      } finally {
        await fh.close();
      }
    },
    chunks: () =>
      decodeChunks(createReadStream(file, { highWaterMark: chunk }) as AsyncIterable<Buffer>),
  };
}

/**
 * Loads files and folders from disk into one Dataset. A folder stands for one
 * model: its `*.jsonl` harness logs are read with the folder's name as the model.
 * Other paths are files of any format `loadDataset` reads.
 */
export async function loadDatasetFromPaths(
  paths: string[],
  opts: LoadOptions = {},
): Promise<Dataset> {
  const chunk = opts.chunkSize ?? DEFAULT_CHUNK;
  const sources: ByteSource[] = [];
  for (const p of paths) {
    const st = await stat(p);
    if (!st.isDirectory()) {
      sources.push(fileSource(p, st.size, chunk));
      continue;
    }
    const model = path.basename(path.resolve(p));
    const logs = (await readdir(p)).filter((f) => f.toLowerCase().endsWith('.jsonl')).sort();
    if (logs.length === 0)
      throw new DataError(
        'folder has no .jsonl harness logs',
        p,
        undefined,
        undefined,
        'samples_<task>_<date>.jsonl files',
      );
    for (const f of logs) {
      const file = path.join(p, f);
      sources.push(fileSource(file, (await stat(file)).size, chunk, model));
    }
  }
  return loadSources(sources, opts);
}
