import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePhoenix, installedPhoenix } from '../../infra/phoenix';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { loadConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { fullVerdict } from '../../src/shared/verify';
import { flushTracing } from '../../src/telemetry/flush';
import { type ReceivedSpan, phoenixSpans } from '../support/phoenix-spans';
import { DEMO_CORPUS } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const API_KEY = 'sk-otel-test-key-7f3a9c2e51d8';
const ES_PASSWORD = 'es-otel-test-password-4b6e';
const dataDir = loadConfig().dataDir;
const phoenixInstalled = installedPhoenix(dataDir) !== undefined;
if (!phoenixInstalled) {
  process.stderr.write(`otel-traces.test: SKIPPED, no trace receiver: Phoenix is not installed under ${dataDir}/phoenix (run \`npm run infra:traces -- install\`; CI does)\n`);
}

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);
const attribute = (span: ReceivedSpan | undefined, key: string) => span?.attributes[key];

/**
 * A MERMAID verification with tracing on, against real Temporal, Elasticsearch, the simulator and
 * a real OTLP receiver (Arize Phoenix): the spans arrive as one trace, workflow -> activities -> LLM
 * calls with GenAI attributes, without a secret, and once each although the worker replays every
 * workflow task (no workflow cache).
 */
describe.skipIf(!phoenixInstalled)('OpenTelemetry traces of a verification, received by Phoenix', () => {
  let harness: WorkerHarness;
  let phoenixUrl: string;
  const project = `verity-test-${Date.now().toString(36)}`;

  beforeAll(async () => {
    phoenixUrl = (await ensurePhoenix(dataDir)).url;
    // Read once, when the first worker or client of this process sets tracing up.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = phoenixUrl;
    process.env.OTEL_RESOURCE_ATTRIBUTES = `openinference.project.name=${project}`;
    harness = await startWorkerHarness('otel', { apiKey: API_KEY, env: { ES_USERNAME: 'elastic', ES_PASSWORD }, worker: { maxCachedWorkflows: 0 } });
    await ingestCorpus({ client: harness.es, index: webIndexName(harness.prefix), file: DEMO_CORPUS, target: WEB_TARGET });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('exports workflow, activity and LLM-call spans as one trace, GenAI attributes set, no secret, none twice', async () => {
    const { config, client } = harness;
    const input = buildVerifyInput(config, { claim: 'Marie Curie was born in Warsaw in 1867.', method: 'mermaid', runId: `${harness.prefix}-run` });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    expect(fullVerdict(await handle.result()).label).toMatch(/^(SUPPORTED|REFUTED|NOT ENOUGH INFO)$/);
    await flushTracing();

    let received: ReceivedSpan[] = [];
    await waitFor('the verification\'s spans in Phoenix', async () => {
      received = await phoenixSpans(phoenixUrl, project);
      return byName(received, 'RunActivity:storeVerdict').length > 0 && received.some((span) => span.name.startsWith('chat '));
    }, 120_000, 1_000);

    // One trace, rooted at the client's start of the workflow (the test's own corpus ingest is
    // traced apart, by the Elasticsearch client); every other span's parent arrived too.
    const starts = byName(received, 'StartWorkflow:verifyClaimWorkflow');
    expect(starts).toHaveLength(1);
    const spans = received.filter((span) => span.context.trace_id === starts[0]!.context.trace_id);
    const ids = new Map(spans.map((span) => [span.context.span_id, span]));
    expect(spans.filter((span) => span.parent_id === null)).toEqual(starts);
    for (const span of spans) if (span.parent_id !== null) expect(ids.has(span.parent_id), `parent of ${span.name}`).toBe(true);
    const parentName = (span: ReceivedSpan) => (span.parent_id ? ids.get(span.parent_id)?.name : undefined);
    const ancestors = (span: ReceivedSpan): string[] => {
      const parent = span.parent_id ? ids.get(span.parent_id) : undefined;
      return parent ? [parent.name, ...ancestors(parent)] : [];
    };

    // workflow -> activity -> LLM call.
    expect(parentName(byName(spans, 'RunWorkflow:verifyClaimWorkflow')[0]!)).toBe('StartWorkflow:verifyClaimWorkflow');
    const llmActivities = byName(spans, 'RunActivity:llmTask');
    const chats = spans.filter((span) => span.name.startsWith('chat '));
    expect(llmActivities.length).toBeGreaterThanOrEqual(2);
    expect(chats).toHaveLength(llmActivities.length);
    for (const chat of chats) {
      expect(parentName(chat)).toBe('RunActivity:llmTask');
      expect(ancestors(chat)).toContain('StartActivity:llmTask');
      expect(ancestors(chat).some((name) => name.startsWith('RunWorkflow:'))).toBe(true);
      expect(chat.name).toBe(`chat ${String(attribute(chat, 'gen_ai.request.model'))}`);
      expect(attribute(chat, 'gen_ai.operation.name')).toBe('chat');
      expect(attribute(chat, 'gen_ai.provider.name')).toBe('openai-compatible'); // the simulator, at OPENAI_BASE_URL
      expect(attribute(chat, 'gen_ai.response.model')).toEqual(expect.any(String));
      expect(attribute(chat, 'gen_ai.usage.input_tokens')).toBeGreaterThan(0);
      expect(attribute(chat, 'gen_ai.usage.output_tokens')).toBeGreaterThan(0);
      expect(attribute(chat, 'gen_ai.response.finish_reasons')).toEqual(['stop']);
      expect(attribute(chat, 'verity.prompt_version')).toMatch(/^mermaid\./);
      expect(attribute(chat, 'verity.cache_hit')).toBe(false);
      expect(attribute(chat, 'verity.cost_usd')).toBe(0);
      expect(chat.attributes).not.toHaveProperty('gen_ai.input.messages');
    }
    const toolSpans = spans.filter((span) => span.name.startsWith('RunActivity:tools.'));
    expect(toolSpans.length).toBeGreaterThan(0);
    for (const tool of toolSpans) expect(`RunActivity:tools.${String(attribute(tool, 'verity.tool.name'))}`).toBe(tool.name);

    // Replayed on every task, yet each workflow and each activity attempt exported exactly once.
    const countBy = (key: (span: ReceivedSpan) => string | undefined) => {
      const counts = new Map<string, number>();
      for (const span of spans) {
        const value = key(span);
        if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      return [...counts.values()];
    };
    expect(byName(spans, 'RunWorkflow:verifyClaimWorkflow')).toHaveLength(1);
    const activityRuns = countBy((span) => (span.name.startsWith('RunActivity:') ? `${String(attribute(span, 'run_id'))}/${String(attribute(span, 'temporalActivityId'))}` : undefined));
    expect(activityRuns.length).toBeGreaterThan(3);
    expect(activityRuns.every((count) => count === 1)).toBe(true);
    expect(byName(spans, 'StartActivity:llmTask')).toHaveLength(llmActivities.length);

    // No secret anywhere: not the LLM API key, not the Elasticsearch password.
    const everything = JSON.stringify(received);
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain(ES_PASSWORD);
  });

  it('traces answers served from the request cache before queueing as "chat <model>" spans with verity.cache_hit', async () => {
    const { config, client } = harness;
    // The same claim in another run: the same LLM requests, all answered by the cache lookup.
    const input = buildVerifyInput(config, { claim: 'Marie Curie was born in Warsaw in 1867.', method: 'mermaid', runId: `${harness.prefix}-again` });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    await handle.result();
    await flushTracing();
    let received: ReceivedSpan[] = [];
    const stored = () => received.find((span) => span.name === 'RunActivity:storeVerdict' && attribute(span, 'temporalWorkflowId') === handle.workflowId);
    await waitFor('the second verification\'s spans in Phoenix', async () => {
      received = await phoenixSpans(phoenixUrl, project);
      return stored() !== undefined;
    }, 120_000, 1_000);
    const chats = received.filter((span) => span.context.trace_id === stored()!.context.trace_id && span.name.startsWith('chat '));
    expect(chats.length).toBeGreaterThanOrEqual(2);
    const ids = new Map(received.map((span) => [span.context.span_id, span]));
    for (const chat of chats) {
      expect(attribute(chat, 'verity.cache_hit')).toBe(true);
      expect(chat.parent_id && ids.get(chat.parent_id)?.name).toBe('RunActivity:llmCachedAnswer');
      expect(attribute(chat, 'verity.cost_usd')).toBe(0);
      expect(attribute(chat, 'gen_ai.usage.input_tokens')).toBeGreaterThan(0);
    }
  });
});
