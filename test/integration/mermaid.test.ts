import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { indexName } from '../../src/es/indices';
import { scopeSafe, type MermaidSettings } from '../../src/methods/mermaid/sandbox/mermaid-settings';
import { fullVerdict, type MethodTrace, type Verdict } from '../../src/shared/verify';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import type { WorkerDependencies } from '../../src/worker/dependencies';
import type { MermaidTrace } from '../../src/methods/mermaid/sandbox/mermaid.workflow';
import { activitySummaries } from '../support/history-summaries';
import { CACHE_LOOKUP_SUFFIX } from '../../workflows/llm-calls';
import { DEMO_CORPUS } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { expectTaskQueueReplays } from '../support/workflow-history';

/** Two claims sharing the subject "Marie Curie": the second should start warm from the first's evidence. */
const FIRST = 'Marie Curie was born in Warsaw in 1867.';
const SECOND = 'Marie Curie was the first woman to win a Nobel Prize.';

describe('MERMAID on real Temporal and Elasticsearch', () => {
  let harness: WorkerHarness;
  let config: VerityConfig;
  let client: Client;
  let deps: WorkerDependencies;

  beforeAll(async () => {
    harness = await startWorkerHarness('mermaid', { simulator: { latencyMs: 100 } });
    ({ config, client, deps } = harness);
    await ingestCorpus({ client: harness.es, index: webIndexName(harness.prefix), file: DEMO_CORPUS, target: WEB_TARGET });
  });

  afterAll(async () => {
    await harness?.close();
  });

  async function verify(claim: string, runId: string, settings: Partial<MermaidSettings> = {}, model?: string) {
    const input = buildVerifyInput(config, { claim, method: 'mermaid', runId, settings: { mermaid: settings }, ...(model ? { model } : {}) });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    const verdict = fullVerdict(await handle.result());
    return { verdict, trace: verdict.trace as MermaidTrace, handle };
  }

  /** The default memory scope of a run's verifications with the configured model (per model and fidelity). */
  const scopeOf = (run: string) => `run:${run}/model:${scopeSafe(config.llm.models.judge)}/fidelity:paper`;

  async function memoryEntries(scope: string): Promise<number> {
    const index = indexName(harness.prefix, 'evidence-memory');
    await harness.es.indices.refresh({ index });
    const { count } = await harness.es.count({ index, query: { term: { runScope: scope } } });
    return count;
  }

  it('decomposes, searches, answers with a label and the trace, stores the verdict, and warms the next claim from memory', async () => {
    const run = `${harness.prefix}-on`;
    const first = await verify(FIRST, run);
    expect(first.verdict.label).toMatch(/^(SUPPORTED|REFUTED)$/);
    expect(['True', 'False']).toContain(first.verdict.methodLabel);
    expect(first.trace.decomposition?.triplets[0]).toMatchObject({ subject: 'Marie Curie' });
    expect(first.trace.steps[0]).toMatchObject({ kind: 'tool', action: { tool: 'search_wikipedia', args: { query: 'Marie Curie' } } });
    expect(first.trace.steps[0]!.observation).toContain('Marie Curie');
    expect(first.trace.steps[0]!.observation!.length).toBeLessThanOrEqual(2000);
    expect(first.trace.steps.at(-1)).toMatchObject({ kind: 'answer' });
    expect(first.trace.toolCalls).toBeGreaterThan(0);
    expect(first.verdict.usage.toolCalls).toBe(first.trace.toolCalls);
    expect(first.trace.memory).toMatchObject({ scope: scopeOf(run), updateMode: 'endOfClaim', recalled: [] });
    expect(first.trace.memory.written).toBeGreaterThan(0);
    expect(await memoryEntries(scopeOf(run))).toBe(first.trace.memory.written);

    const stored = await deps.verdicts.get(first.handle.workflowId);
    expect((stored?.trace as MethodTrace | undefined)?.method).toBe('mermaid');
    expect((stored?.trace as MermaidTrace).steps).toHaveLength(first.trace.steps.length);

    const second = await verify(SECOND, run);
    expect(second.trace.memory.recalled.length).toBeGreaterThan(0);
    expect(second.trace.memory.recalled[0]).toMatchObject({ claimId: first.verdict.claimId, tool: 'search_wikipedia' });
    expect(second.trace.memory.lines[0]).toMatch(/^\[Memory\] Previous evidence for 'Marie Curie': /);
    expect(second.trace.toolCalls).toBe(0);
    expect(second.verdict.usage).toMatchObject({ toolCalls: 0, llmCalls: 2 });
  });

  it('without memory the same claim searches again and nothing is written', async () => {
    const run = `${harness.prefix}-off`;
    await verify(FIRST, run, { memory: 'off' });
    const second = await verify(SECOND, run, { memory: 'off' });
    expect(second.trace.memory.recalled).toEqual([]);
    expect(second.trace.toolCalls).toBeGreaterThan(0);
    expect(await memoryEntries(scopeOf(run))).toBe(0);
  });

  it("keeps one memory per model: another model of the same run does not recall the first model's evidence unless sharing is asked for", async () => {
    const run = `${harness.prefix}-per-model`;
    await verify(FIRST, run, { maxSteps: 1 }, 'model-a');
    const other = await verify(SECOND, run, { maxSteps: 1 }, 'model-b');
    expect(other.trace.memory.scope).toBe(`run:${run}/model:model-b/fidelity:paper`);
    expect(other.trace.memory.recalled).toEqual([]);
    expect(other.trace.toolCalls).toBeGreaterThan(0);

    const shared = `${harness.prefix}-shared`;
    await verify(FIRST, shared, { maxSteps: 1, memorySharing: 'run' }, 'model-a');
    const sharing = await verify(SECOND, shared, { maxSteps: 1, memorySharing: 'run' }, 'model-b');
    expect(sharing.trace.memory.scope).toBe(`run:${shared}`);
    expect(sharing.trace.memory.recalled.length).toBeGreaterThan(0);
  });

  it('a frozen memory of another run is recalled but never written to; with tools disabled no tool is called', async () => {
    const source = scopeOf(`${harness.prefix}-on`);
    const before = await memoryEntries(source);
    const frozen = await verify('Marie Curie did most of her research in France.', `${harness.prefix}-proxy`, { memory: 'frozen', memoryScope: source, tools: false });
    expect(frozen.trace.memory.recalled.length).toBeGreaterThan(0);
    expect(frozen.trace.tools).toEqual([]);
    expect(frozen.verdict.usage.toolCalls).toBe(0);
    expect(await memoryEntries(source)).toBe(before);

    const searching = await verify('The Amazon River rises in the Andes of Peru.', `${harness.prefix}-proxy`, { memory: 'frozen', memoryScope: source });
    expect(searching.trace.toolCalls).toBeGreaterThan(0);
    expect(searching.trace.memory.frozenSkipped).toBeGreaterThan(0);
    expect(await memoryEntries(source)).toBe(before);
  });

  it('at T_max the paper forces an answer by LLM; code-compat returns "True" without a call', async () => {
    const claim = 'Mount Everest rises to about 8,849 metres.';
    const paper = await verify(claim, `${harness.prefix}-tmax`, { maxSteps: 1, memory: 'off' });
    expect(paper.trace.steps[0]).toMatchObject({ kind: 'tool' });
    expect(paper.trace).toMatchObject({ forced: true, fallback: false });
    expect(paper.verdict.promptVersion).toContain('mermaid.force-answer@4');
    expect(paper.verdict.usage.llmCalls).toBe(3);

    const compat = await verify(claim, `${harness.prefix}-tmax`, { maxSteps: 1, memory: 'off', fidelity: 'code-compat' });
    expect(compat.trace).toMatchObject({ fidelity: 'code-compat', forced: true, fallback: true, answer: 'True' });
    expect(compat.verdict).toMatchObject({ label: 'SUPPORTED', methodLabel: 'True' });
    expect(compat.verdict.usage.llmCalls).toBe(2);
    expect(compat.verdict.promptVersion).not.toContain('force-answer');
  });

  it('code-compat sends {query} to every tool (title tools fail, and count) and writes each call to memory at once, errors included', async () => {
    const claim = 'Photosynthesis is how plants turn light energy into chemical energy.';
    const toolset: MermaidSettings['toolset'] = ['get_summary', 'web_search'];
    const compat = await verify(claim, `${harness.prefix}-compat`, { fidelity: 'code-compat', toolset });
    expect(compat.trace.tools).toEqual(['get_summary', 'web_search']);
    expect(compat.trace.steps[0]).toMatchObject({ kind: 'tool', isError: true, action: { tool: 'get_summary', args: { query: 'Photosynthesis' } } });
    expect(compat.trace.steps[0]!.observation).toMatch(/title/);
    expect(compat.trace.toolCalls).toBeGreaterThanOrEqual(2);
    expect(compat.trace.memory.written).toBe(compat.trace.toolCalls);

    const paper = await verify(claim, `${harness.prefix}-paper-args`, { toolset });
    expect(paper.trace.steps[0]).toMatchObject({ kind: 'tool', isError: false, action: { tool: 'get_summary', args: { title: 'Photosynthesis' } } });
    expect(paper.trace.steps[0]!.observation).toContain('light energy');
  });

  it('runs the decomposer and the executor on their own models; the verdict names the last call\'s model', async () => {
    const { verdict, trace, handle } = await verify('The Eiffel Tower is in Paris.', `${harness.prefix}-models`, {
      decomposerModel: 'gpt-4o',
      executorModel: 'gpt-4o-mini',
      memory: 'off',
    }, 'judge-model-unused');
    expect(trace.models).toEqual({ decomposer: 'gpt-4o', executor: 'gpt-4o-mini' });
    expect(verdict.model).toBe('gpt-4o-mini');
    const scheduled = await llmTaskInputs(handle.workflowId);
    expect(scheduled.find((call) => call.task === 'mermaid.decompose')).toMatchObject({ model: 'gpt-4o', role: 'decomposer' });
    expect(scheduled.filter((call) => call.task === 'mermaid.executor-step').every((call) => call.model === 'gpt-4o-mini' && call.role === 'executor')).toBe(true);
  });

  it('answers the trace query while the verification runs', async () => {
    const input = buildVerifyInput(config, { claim: 'Photosynthesis combines carbon dioxide and water.', method: 'mermaid', runId: `${harness.prefix}-query` });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    const seen: MermaidTrace[] = [];
    let done = false;
    const result = handle.result().finally(() => (done = true));
    while (!done) {
      const trace = (await handle.query<MethodTrace | null>('trace').catch(() => null)) as MermaidTrace | null;
      if (trace && (await handle.describe()).status.name === 'RUNNING') seen.push(trace);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const verdict: Verdict = fullVerdict(await result);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((trace) => trace.decomposition !== null)).toBe(true);
    expect((verdict.trace as MermaidTrace).steps.length).toBeGreaterThanOrEqual(Math.max(...seen.map((trace) => trace.steps.length)));
  });

  it('reads like the method in the Temporal UI and keeps a transcript of every call with its LLM-cache reference', async () => {
    const { verdict, handle, trace } = await verify(FIRST, `${harness.prefix}-ui`);
    const description = await handle.describe();
    expect(await description.staticSummary()).toBe(`mermaid · ${verdict.model} · "${FIRST}"`);
    expect(await description.staticDetails()).toContain(`**Claim:** ${FIRST}`);
    const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(metadata.currentDetails).toMatch(/^\*\*done\*\* · \d+ LLM calls · \d+ tool calls · \*\*(SUPPORTED|REFUTED)\*\*$/);

    // A call answered from the request cache shows as its lookup; a paid one as its lookup, then the call.
    const summaries = [...new Set((await activitySummaries(client, handle.workflowId)).map((summary) => summary.replace(CACHE_LOOKUP_SUFFIX, '')))];
    const executorSteps = trace.steps.filter((step) => step.step <= 5).length;
    expect(summaries).toEqual(
      expect.arrayContaining([
        `mermaid · decomposer · ${verdict.model}`,
        `mermaid · executor step 1/5 · ${verdict.model}`,
        `mermaid · executor step ${executorSteps}/5 · ${verdict.model}`,
        'search_wikipedia("Marie Curie")',
        `memory recall · ${trace.entities.length} ${trace.entities.length === 1 ? 'entity' : 'entities'}`,
        `store verdict · ${verdict.label} · mermaid`,
      ]),
    );
    expect(summaries.some((summary) => /^memory update · \d+ observations? · \d+ entit(y|ies)$/.test(summary))).toBe(true);

    const transcript = verdict.transcript!;
    expect(transcript.llmCalls.map((call) => call.summary)).toEqual(summaries.filter((summary) => summary.startsWith('mermaid · ') && !summary.startsWith('mermaid · tool catalog')));
    expect(transcript.llmCalls[0]).toMatchObject({ task: 'mermaid.decompose', attempt: 1, cached: expect.any(Boolean) });
    expect(transcript.toolCalls[0]).toMatchObject({ tool: 'search_wikipedia', args: { query: 'Marie Curie' }, isError: false });
    const cacheIndex = indexName(harness.prefix, 'llm-cache');
    const cached = await harness.es.get<{ messages: { role: string; content: string }[]; rawResponse: string }>({ index: cacheIndex, id: transcript.llmCalls[0]!.requestHash! });
    expect(cached._source?.messages.some((message) => message.content.includes(FIRST))).toBe(true);
    expect(JSON.parse(cached._source!.rawResponse)).toMatchObject({ triplets: expect.any(Array) });
  });

  async function llmTaskInputs(workflowId: string): Promise<{ task: string; model?: string; role?: string }[]> {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).flatMap((event) => {
      const attributes = event.activityTaskScheduledEventAttributes;
      if (attributes?.activityType?.name !== 'llmTask') return [];
      const data = attributes.input?.payloads?.[0]?.data;
      return data ? [JSON.parse(Buffer.from(data).toString('utf8')) as { task: string; model?: string; role?: string }] : [];
    });
  }

  it('every workflow this file ran replays with the current workflow code', async () => {
    expect(await expectTaskQueueReplays(harness.client, harness.config.temporal.taskQueue)).toBeGreaterThan(0);
  });
});

describe('MERMAID with a model that never answers valid JSON', () => {
  let harness: WorkerHarness;

  beforeAll(async () => {
    harness = await startWorkerHarness('mermaid-bad', { simulator: { faults: [{ kind: 'malformed', everyNth: 1 }] } });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('falls back to an empty decomposition, keeps unparsable steps as thoughts, and uses the fallback label', async () => {
    const input = buildVerifyInput(harness.config, { claim: FIRST, method: 'mermaid', settings: { mermaid: { memory: 'off', maxSteps: 2 } } });
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, input);
    const verdict = fullVerdict(await handle.result());
    const trace = verdict.trace as MermaidTrace;
    expect(trace).toMatchObject({ decompositionFailed: true, decomposition: { triplets: [], topic: 'unknown' }, entities: [], forced: true, fallback: true });
    expect(trace.steps.map((step) => step.kind)).toEqual(['unparsable', 'unparsable']);
    // The released code keeps the reply's raw text as the Thought, not an error message.
    for (const step of trace.steps) expect(step.thought).toMatch(/^\{.*<<truncated$/);
    expect(verdict).toMatchObject({ label: 'REFUTED', methodLabel: 'False' });
  });
});
