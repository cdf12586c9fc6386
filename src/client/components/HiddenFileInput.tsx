import type { Ref } from 'react';

export interface HiddenFileInputProps {
  ref: Ref<HTMLInputElement>;
  /** Its accessible name. */
  label: string;
  testId: string;
  accept?: string;
  multiple?: boolean;
  id?: string;
  /** Pick a folder rather than files (Chromium's `webkitdirectory`). */
  directory?: boolean;
  onFiles(files: FileList | null): void;
}

/**
 * A visually hidden file input that a button elsewhere opens: out of the tab
 * order, named for assistive technology, and emptied after each pick so that
 * picking the same file again fires again.
 */
export function HiddenFileInput({
  ref,
  label,
  testId,
  accept,
  multiple,
  id,
  directory,
  onFiles,
}: HiddenFileInputProps) {
  return (
    <input
      ref={ref}
      id={id}
      className="sr-only"
      type="file"
      multiple={multiple}
      accept={accept}
      aria-label={label}
      data-testid={testId}
      tabIndex={-1}
      {...(directory ? { webkitdirectory: '' } : {})}
      onChange={(e) => {
        onFiles(e.target.files);
        e.target.value = '';
      }}
    />
  );
}
