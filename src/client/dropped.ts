/**
 * Files from a drop or a picker, with their paths: harness logs name their
 * model by folder (`model-name/samples_task_date.jsonl`), so a dropped folder
 * is walked and each file keeps its path relative to the drop.
 */

/** A file and the name the loader sees (its relative path when known). */
export interface NamedFile {
  file: File;
  name: string;
}

/** Files picked with an <input type=file> (folders via webkitdirectory). */
export function fromFileList(list: FileList | File[]): NamedFile[] {
  return [...list].map((file) => ({ file, name: file.webkitRelativePath || file.name }));
}

function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const out: FileSystemEntry[] = [];
  return new Promise((resolve, reject) => {
    // readEntries returns batches (about 100 at a time) until an empty one.
    const next = () =>
      reader.readEntries((batch) => {
        if (!batch.length) return resolve(out);
        out.push(...batch);
        next();
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, prefix: string, out: NamedFile[]): Promise<void> {
  const name = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ file, name });
  } else if (entry.isDirectory) {
    for (const child of await readAll(entry as FileSystemDirectoryEntry))
      await walk(child, name, out);
  }
}

/** Files of a drop, walking into dropped folders where the browser allows it. */
export async function fromDataTransfer(dt: DataTransfer): Promise<NamedFile[]> {
  const entries = [...dt.items]
    .filter((it) => it.kind === 'file')
    .map((it) => it.webkitGetAsEntry?.() ?? null);
  if (!entries.length || entries.some((e) => !e) || !entries.some((e) => e!.isDirectory))
    return fromFileList(dt.files);
  const out: NamedFile[] = [];
  for (const e of entries) await walk(e!, '', out);
  return out;
}
