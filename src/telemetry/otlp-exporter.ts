import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { type IExportTraceServiceResponse, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { OtlpProtocol } from './tracing-env';

/** OTLP/HTTP with protobuf bodies, the protocol's default, and the only one some receivers (Phoenix) take. */
class OtlpProtobufTraceExporter extends OTLPExporterBase<ReadableSpan[]> implements SpanExporter {
  constructor(url: string) {
    const options = convertLegacyHttpOptions({ url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' });
    super(createOtlpHttpExportDelegate<ReadableSpan[], IExportTraceServiceResponse>(options, ProtobufTraceSerializer));
  }
}

/** The span exporter for `url` in the chosen OTLP/HTTP encoding (headers from OTEL_EXPORTER_OTLP_HEADERS). */
export function otlpTraceExporter(url: string, protocol: OtlpProtocol): SpanExporter {
  return protocol === 'http/json' ? new OtlpJsonTraceExporter({ url }) : new OtlpProtobufTraceExporter(url);
}
