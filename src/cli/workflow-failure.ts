import { type TemporalFailure } from '@temporalio/client';

/** The innermost failure message of a failed workflow (usually the activity's own error). */
export function describeFailure(err: Error): string {
  let current: Error | undefined = err;
  let message = err.message;
  while (current) {
    if (current.message) message = current.message;
    current = (current as TemporalFailure).cause;
  }
  return message.split('\n')[0] ?? message;
}
