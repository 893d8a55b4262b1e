import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AsyncLocalContextManager } from './context-manager';
import { onFlushTracing } from './flush';
import { otlpTraceExporter } from './otlp-exporter';
import { type TracingEnv, tracesProtocol, tracesUrl, tracingServiceName } from './tracing-env';

/**
 * An OTLP/HTTP trace pipeline: its processor also takes the workflow spans that Temporal's sink
 * hands over. This module loads the SDK: it is imported only when tracing is on (tracing-env.ts).
 */
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
    if (processTracing) {
      processTracing.provider.register({ contextManager: new AsyncLocalContextManager().enable() });
      const { spanProcessor } = processTracing;
      onFlushTracing(() => spanProcessor.forceFlush());
    }
  }
  return processTracing ?? undefined;
}
