import type { UiError } from '../state';

/** The error banner (with file, line and column when the input was at fault) and notices. */
export function Messages(props: {
  error: UiError | null;
  notice: string | null;
  onDismiss: () => void;
}) {
  const { error, notice, onDismiss } = props;
  if (!error && !notice) return null;
  return (
    <div className="messages">
      {error && (
        <div className="error" role="alert" data-testid="error">
          <strong>{error.title}</strong>
          {(error.file || error.line !== undefined) && (
            <p className="where" data-testid="error-where">
              {error.file && <>File {error.file}</>}
              {error.line !== undefined && <>, line {error.line}</>}
              {error.column !== undefined && <>, column {error.column}</>}
            </p>
          )}
          {/* pre-line: a list (every file that gave nothing, and why) keeps its lines */}
          <p style={{ whiteSpace: 'pre-line' }}>{error.message}</p>
          <button type="button" className="small" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      )}
      {notice && !error && (
        <div className="notice" role="status" data-testid="notice">
          {notice}{' '}
          <button type="button" className="small" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
