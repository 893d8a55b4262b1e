import { type Attributes, trace } from '@opentelemetry/api';

/** Adds attributes to the active span (an activity's, from Temporal's interceptor); a no-op with tracing off. */
export function annotateActiveSpan(attributes: Attributes): void {
  const span = trace.getActiveSpan();
  if (span?.isRecording()) span.setAttributes(attributes);
}
