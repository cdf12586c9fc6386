/**
 * Node-only loading from disk (the browser bundle must not import this file).
 * Files are streamed with `fs.createReadStream` (gzip through `node:zlib`). A
 * folder is walked to any depth, as an lm-evaluation-harness output root is
 * laid out: each file is named by its path, so a harness log's model is its
 * leaf folder (or its results file's `model_name`).
 */
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import {
  DEFAULT_CHUNK,
  HEAD_BYTES,
  loadSources,
  parentFolder,
  type ByteSource,
  type LoadOptions,
} from '../core/data/load.ts';
import { DataError, type Dataset } from '../core/data/types.ts';

function fileSource(file: string, size: number, chunk: number, optional = false): ByteSource {
  const stream = () => createReadStream(file, { highWaterMark: chunk });
  return {
    name: file,
    size,
    optional,
    async head() {
      const fh = await open(file, 'r');
      try {
        const buf = Buffer.alloc(Math.min(HEAD_BYTES, size));
        const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
        return buf.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
    },
    bytes: () => stream() as AsyncIterable<Buffer>,
    gunzip: () => stream().pipe(createGunzip({ chunkSize: 1 << 16 })) as AsyncIterable<Buffer>,
  };
}

/** Files a folder walk offers to the loader (others, e.g. plots, are never opened). */
const WALKED = /\.(jsonl|jsonl\.gz|json|json\.gz|parquet|eval)$/i;

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await walk(p, out);
    else if (e.isFile() && WALKED.test(e.name)) out.push(p);
  }
}

/**
 * Loads files and folders from disk into one Dataset. A folder is walked to any
 * depth for harness logs (`.jsonl`, `.jsonl.gz`), results files and the other
 * result formats (`.json`, `.parquet`, `.eval`); a walked file that is none of
 * them is skipped with a note. Other paths are files of any format `loadDataset`
 * reads.
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
    const files: string[] = [];
    await walk(p, files);
    if (files.length === 0)
      throw new DataError(
        'folder has no result files',
        p,
        undefined,
        undefined,
        'harness logs (samples_<task>_<date>.jsonl[.gz]) in one folder per model, or .json, .parquet or .eval results',
      );
    for (const f of files) {
      const src = fileSource(f, (await stat(f)).size, chunk, true);
      // `llm-nrm fit .` inside a model folder: the path has no folder to name the model.
      if (!parentFolder(f)) src.model = path.basename(path.resolve(path.dirname(f)));
      sources.push(src);
    }
  }
  return loadSources(sources, opts);
}
