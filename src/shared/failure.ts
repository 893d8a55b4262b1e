/** A failure with an optional cause chain (Temporal's failures nest the activity's own error). */
interface CausedError {
  message: string;
  cause?: unknown;
}

/** The innermost failure message of a failed workflow or child (usually the activity's own error). */
export function describeFailure(err: CausedError): string {
  let current: CausedError | undefined = err;
  let message = err.message;
  while (current) {
    if (current.message) message = current.message;
    const cause: unknown = current.cause;
    current = cause && typeof cause === 'object' && 'message' in cause ? (cause as CausedError) : undefined;
  }
  return message.split('\n')[0] ?? message;
}

/** The error type of the innermost ApplicationFailure in the chain, if any. */
export function failureType(err: CausedError): string | undefined {
  let current: (CausedError & { type?: unknown }) | undefined = err;
  let type: string | undefined;
  while (current) {
    if (typeof current.type === 'string' && current.type) type = current.type;
    const cause: unknown = current.cause;
    current = cause && typeof cause === 'object' && 'message' in cause ? (cause as CausedError) : undefined;
  }
  return type;
}
