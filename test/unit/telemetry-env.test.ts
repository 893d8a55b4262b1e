import { describe, expect, it } from 'vitest';
import { clientTracingInterceptors } from '../../src/telemetry/client-tracing';
import { activeTracing, createTracing } from '../../src/telemetry/tracing';
import { workerTracing } from '../../src/telemetry/worker-tracing';
import { capturesMessageContent, tracesProtocol, tracesUrl, tracingServiceName } from '../../src/telemetry/tracing-env';

describe('tracing is off unless the standard OTLP variables ask for it', () => {
  it('is off with no endpoint, an empty one, OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none', () => {
    expect(tracesUrl({})).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(createTracing({})).toBeUndefined();
  });

  it('leaves workers and clients of a process without the variables as they were: no interceptors, no sinks', () => {
    for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) delete process.env[name];
    expect(activeTracing()).toBeUndefined();
    expect(workerTracing()).toBeUndefined();
    expect(clientTracingInterceptors()).toEqual([]);
  });

  it('sends to <endpoint>/v1/traces, or to the traces endpoint as given (which wins)', () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' })).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom' })).toBe('http://collector:4318/custom');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/v1/traces' })).toBe('http://b:4318/v1/traces');
  });

  it('builds a pipeline for the endpoint, named after OTEL_SERVICE_NAME or "verity"', async () => {
    const tracing = createTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SERVICE_NAME: 'sweeps' });
    expect(tracing?.url).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracing?.resource.attributes['service.name']).toBe('sweeps');
    expect(tracingServiceName({})).toBe('verity');
    await tracing?.provider.shutdown();
  });

  it('captures message content only on OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true', () => {
    expect(capturesMessageContent({})).toBe(false);
    expect(capturesMessageContent({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false' })).toBe(false);
    expect(capturesMessageContent({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE' })).toBe(true);
  });

  it('sends OTLP/HTTP protobuf (the default, which every receiver takes) unless http/json is asked for', () => {
    expect(tracesProtocol({})).toBe('http/protobuf');
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
  });
});
