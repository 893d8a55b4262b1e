import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { activeTracing } from './tracing';

/**
 * The client's workflow interceptors: with tracing on, starting a workflow opens the trace's root
 * span here (in the CLI) and hands its context to the workflow in a header.
 */
export function clientTracingInterceptors(): WorkflowClientInterceptor[] {
  return activeTracing() ? [new OpenTelemetryWorkflowClientInterceptor()] : [];
}
