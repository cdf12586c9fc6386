import { cancelTask, type Task, type TaskName } from './store';

/** A task's progress line (with Cancel), its last message, or its error. */
export function TaskStatus({ name, task }: { name: TaskName; task: Task }) {
  return (
    <div className="bank-status" data-testid={`bank-status-${name}`}>
      {task.status === 'running' && (
        <p className="row" role="status">
          <span>{task.stage ?? 'Working…'}</span>
          <button type="button" className="small" onClick={() => cancelTask(name)}>
            Cancel
          </button>
        </p>
      )}
      {task.status !== 'running' && task.stage && (
        <p className="muted" role="status">
          {task.stage}
        </p>
      )}
      {task.status === 'error' && task.error && (
        <div className="error" role="alert" data-testid={`bank-error-${name}`}>
          <strong>{task.error.title}</strong>
          <p>{task.error.message}</p>
        </div>
      )}
    </div>
  );
}
