import { context, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { traceChatCall } from '../../src/telemetry/chat-span';
import { AsyncLocalContextManager } from '../../src/telemetry/context-manager';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register({ contextManager: new AsyncLocalContextManager() });

const request = { provider: 'simulator', model: 'sim-judge', promptVersion: 'rag.verdict@1', temperature: 0, seed: 1, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('traceChatCall', () => {
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  it('makes one "chat <model>" span per call, the child of the active span across awaits, with the answer\'s attributes', async () => {
    await trace.getTracer('test').startActiveSpan('RunActivity:llmTask', async (activity) => {
      await traceChatCall(request, [], async (recorder) => {
        await new Promise((resolve) => setImmediate(resolve));
        recorder.answered({ model: 'sim-judge', inputTokens: 10, outputTokens: 4, costUsd: 0, cacheHit: false, finishReason: 'stop' });
        return 'ok';
      });
      activity.end();
    });
    const [chat, activity] = exporter.getFinishedSpans();
    expect(chat?.name).toBe('chat sim-judge');
    expect(chat?.parentSpanId).toBe(activity?.spanContext().spanId);
    expect(chat?.spanContext().traceId).toBe(activity?.spanContext().traceId);
    expect(chat?.attributes).toMatchObject({ 'gen_ai.request.model': 'sim-judge', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 4, 'verity.cache_hit': false });
  });

  it('marks a failed call as an error with the secret redacted, and rethrows', async () => {
    exporter.reset();
    const key = 'sk-abcdef0123456789';
    await expect(traceChatCall(request, [key], () => Promise.reject(new Error(`bad key ${key}`)))).rejects.toThrow(key);
    const [span] = exporter.getFinishedSpans();
    expect(span?.status.message).toBe('bad key [redacted]');
    expect(span?.attributes['error.type']).toBe('Error');
  });
});
