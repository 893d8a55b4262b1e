import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { type ChatAttributeOptions, type ChatCallRequest, type ChatCallResponse, chatRequestAttributes, chatResponseAttributes, chatSpanName, safeErrorMessage } from './gen-ai-attributes';
import { capturesMessageContent } from './tracing-env';

/** Tells the call's span what was answered. */
export interface ChatCallRecorder {
  answered(response: ChatCallResponse): void;
}

const tracer = () => trace.getTracer('verity');

/**
 * Runs one LLM call inside a "chat <model>" client span, the child of whatever span is active (the
 * activity's). With tracing off the global tracer is a no-op and nothing is built.
 */
export function traceChatCall<T>(request: ChatCallRequest, secrets: ChatAttributeOptions['secrets'], call: (recorder: ChatCallRecorder) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(chatSpanName(request.model), { kind: SpanKind.CLIENT }, async (span) => {
    const options = { captureContent: span.isRecording() && capturesMessageContent(process.env), secrets };
    if (span.isRecording()) span.setAttributes(chatRequestAttributes(request, options));
    try {
      return await call({
        answered(response) {
          if (span.isRecording()) span.setAttributes(chatResponseAttributes(response, options));
        },
      });
    } catch (err) {
      span.setAttribute('error.type', err instanceof Error ? err.name : 'Error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: safeErrorMessage(err, options) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * A call answered from the request cache before it was queued (the workflow's cache lookup): its
 * span is recorded once the hit is known, from `startedAt`, so cache hits show like any call.
 */
export function traceCachedChat(request: ChatCallRequest, response: ChatCallResponse, startedAt: number, secrets: ChatAttributeOptions['secrets']): void {
  const span = tracer().startSpan(chatSpanName(request.model), { kind: SpanKind.CLIENT, startTime: startedAt });
  if (span.isRecording()) {
    const options = { captureContent: capturesMessageContent(process.env), secrets };
    span.setAttributes({ ...chatRequestAttributes(request, options), ...chatResponseAttributes(response, options) });
  }
  span.end();
}
