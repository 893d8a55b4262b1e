/** The OpenTelemetry environment variables verity reads (the standard ones, nothing of its own). */
export type TracingEnv = Partial<Record<string, string | undefined>>;

const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === 'true';

/**
 * Where traces go (OTLP/HTTP), or undefined when tracing is off: it is on only when
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is) or OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces)
 * is set, and not turned off by OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 */
export function tracesUrl(env: TracingEnv): string | undefined {
  if (isTrue(env.OTEL_SDK_DISABLED) || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** Prompts and answers go into LLM spans only when the user opts in (the GenAI conventions' switch). */
export function capturesMessageContent(env: TracingEnv): boolean {
  return isTrue(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT);
}

/** The service name of exported spans (OTEL_SERVICE_NAME, default "verity"). */
export function tracingServiceName(env: TracingEnv): string {
  return env.OTEL_SERVICE_NAME?.trim() || 'verity';
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL: http/json when asked, else http/protobuf (the default; gRPC is not offered). */
export function tracesProtocol(env: TracingEnv): OtlpProtocol {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim().toLowerCase();
  return protocol === 'http/json' ? 'http/json' : 'http/protobuf';
}
