import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AsyncLocalContextManager } from './context-manager';
import { otlpTraceExporter } from './otlp-exporter';
import { type TracingEnv, tracesProtocol, tracesUrl, tracingServiceName } from './tracing-env';

/** An OTLP/HTTP trace pipeline: its processor also takes the workflow spans that Temporal's sink hands over. */
export interface Tracing {
  url: string;
  resource: Resource;
  spanProcessor: SpanProcessor;
  provider: BasicTracerProvider;
}

/** The pipeline the environment asks for, or undefined when tracing is off (tracing-env.ts). Not registered. */
export function createTracing(env: TracingEnv): Tracing | undefined {
  const url = tracesUrl(env);
  if (!url) return undefined;
  // OTEL_RESOURCE_ATTRIBUTES adds to it, e.g. openinference.project.name=<project> for Phoenix.
  const resource = new Resource({ 'service.name': tracingServiceName(env) }).merge(envDetectorSync.detect());
  const spanProcessor = new BatchSpanProcessor(otlpTraceExporter(url, tracesProtocol(env)));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  return { url, resource, spanProcessor, provider };
}

let processTracing: Tracing | null | undefined;

/**
 * This process's tracing, set up on first use from process.env and registered as the global
 * tracer provider, context manager and (W3C trace-context) propagator; undefined when off.
 */
export function activeTracing(): Tracing | undefined {
  if (processTracing === undefined) {
    processTracing = createTracing(process.env) ?? null;
    processTracing?.provider.register({ contextManager: new AsyncLocalContextManager().enable() });
  }
  return processTracing ?? undefined;
}

/** Sends the spans still buffered (before a CLI exits or a worker stops); never throws. */
export async function flushTracing(): Promise<void> {
  if (!processTracing) return;
  await processTracing.spanProcessor.forceFlush().catch(() => undefined);
}
