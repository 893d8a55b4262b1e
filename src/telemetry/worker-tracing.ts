import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry';
import { activeTracing, type Tracing } from './tracing';

/** Temporal's OpenTelemetry workflow interceptors, bundled with the workflows when tracing is on. */
export const OTEL_WORKFLOW_INTERCEPTORS_PATH = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** What a worker adds when tracing is on: workflow interceptors, activity spans, and the sink that exports workflow spans. */
export interface WorkerTracing {
  workflowInterceptorModules: string[];
  activityInterceptors: ActivityInterceptorsFactory[];
  sinks: InjectedSinks<OpenTelemetrySinks>;
}

export function workerTracingOf(tracing: Tracing): WorkerTracing {
  return {
    workflowInterceptorModules: [OTEL_WORKFLOW_INTERCEPTORS_PATH],
    activityInterceptors: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    // Sinks are not called during replay, so a replayed workflow does not export its spans again.
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}

/** This process's worker tracing, or undefined when tracing is off. */
export function workerTracing(): WorkerTracing | undefined {
  const tracing = activeTracing();
  return tracing ? workerTracingOf(tracing) : undefined;
}
