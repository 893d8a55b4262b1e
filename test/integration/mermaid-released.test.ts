import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { LlmCache } from '../../src/llm/cache';
import { JSON_SCHEMA_INSTRUCTION } from '../../src/llm/prompt-conventions';
import type { MermaidTrace } from '../../src/methods/mermaid/sandbox/mermaid.workflow';
import { MERMAID_RELEASED_COMMIT, type MermaidReleasedPrompts } from '../../src/methods/mermaid/sandbox/released-prompts';
import { RELEASED_NO_ANSWER_MARKER, RELEASED_TITLE_TOOL_MARKER } from '../../src/methods/mermaid/simulator-responder';
import type { ToolName } from '../../src/shared/tools';
import { fullVerdict } from '../../src/shared/verify';
import { ingestRecordedWeb } from '../support/recorded-web';
import { SHARED_DATA } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { expectDeterministicReplay } from '../support/workflow-history';

const WEB = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');
const CLAIM = 'Justice William O. Douglas was born on October 16, 1898.';
const TOOL_NAMES = ['search_google', 'search_wikipedia', 'get_article', 'extract_key_facts', 'search_google_scholar'];

/**
 * Templates written for the test (the released text stays in the user's checkout), with main.py's fields and
 * Python's brace escapes; the react one names a schema so the simulator answers in the release's JSON protocol.
 */
function prompts(extra = ''): MermaidReleasedPrompts {
  const schema = JSON.stringify({ title: 'mermaid_released_react', type: 'object' }).replace(/[{}]/g, (brace) => brace + brace);
  return {
    commit: MERMAID_RELEASED_COMMIT,
    decompose: 'Decompose the claim. Reply ONLY in JSON.\n',
    react: `Agent${extra}.\nQuery: {query}\nBackground: {background}\nHistory: {history}\nTools: {tools}\n{{"thought": "..."}}\n${JSON_SCHEMA_INSTRUCTION}\n\`\`\`json\n${schema}\n\`\`\``,
    toolNames: TOOL_NAMES,
  };
}

describe('mermaid with the released prompts on real Temporal and Elasticsearch (recorded web, simulator)', () => {
  let harness: WorkerHarness;
  const verify = async (releasedPrompts: MermaidReleasedPrompts, runId: string, toolset?: ToolName[]) => {
    const input = buildVerifyInput(harness.config, { claim: CLAIM, method: 'mermaid', runId, settings: { mermaid: { releasedPrompts, fidelity: 'code-compat', ...(toolset ? { toolset } : {}) } } });
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, input);
    const verdict = fullVerdict(await handle.result());
    return { verdict, trace: verdict.trace as MermaidTrace & { released: { commit: string } }, handle };
  };
  const messagesOf = async (requestHash: string | undefined) => (await new LlmCache(harness.deps.es, harness.config.elasticsearch.indexPrefix, 'readwrite').get(requestHash!))?.messages;

  beforeAll(async () => {
    harness = await startWorkerHarness('mermaid', { simulator: { latencyMs: 20 } });
    await ingestRecordedWeb(harness, WEB);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("runs main.py's loop: plain-text answers parsed as the code does, the code's tool alias, {query: input}, the observation as str(content), per-call memory", async () => {
    const { verdict, trace, handle } = await verify(prompts(), `${harness.prefix}-released`);
    expect(verdict).toMatchObject({ label: 'REFUTED', methodLabel: 'False' });
    expect(trace.released.commit).toBe(MERMAID_RELEASED_COMMIT);
    // The simulator's decomposer answers in prose around a fence, which the code's decompose cannot read: its fallback.
    expect(trace).toMatchObject({ decompositionFailed: true, entities: [], toolCalls: 1, fallback: false, tools: TOOL_NAMES });
    expect(trace.steps.map((step) => step.kind)).toEqual(['tool', 'answer']);
    expect(trace.steps[0]!.action).toMatchObject({ tool: 'search_google', input: CLAIM, args: { query: CLAIM } });
    // search_google's text rebuilt from web_search's data as the release's server writes it (compact JSON, its keys).
    expect(trace.steps[0]!.observation).toMatch(/^\[TextContent\(type='text', text='\{"query":"Justice William O\. Douglas[^"]*","results":\[\{"title":/);
    expect(trace.memory.written).toBe(1);
    expect(verdict.promptVersion).toContain('mermaid.released.react@1');

    const calls = verdict.transcript!.llmCalls;
    expect(calls).toHaveLength(3);
    expect(await messagesOf(calls[0]!.requestHash)).toEqual([
      { role: 'system', content: 'Decompose the claim. Reply ONLY in JSON.\n' },
      { role: 'user', content: CLAIM },
    ]);
    const first = await messagesOf(calls[1]!.requestHash);
    expect(first?.[0]?.content).toContain(`Agent.\nQuery: ${CLAIM}\nBackground: {"triplets": [], "topic": "unknown"}\nHistory: None yet.\nTools: ${TOOL_NAMES.join(', ')}\n{"thought": "..."}\n`);
    expect(first?.[1]).toEqual({ role: 'user', content: `Continue reasoning about: ${CLAIM}` });
    const second = await messagesOf(calls[2]!.requestHash);
    expect(second?.[0]?.content).toContain(`History: Thought: I should search.\nAction: Used search_google with input: ${CLAIM}\nObservation: [TextContent(type='text', text=`);
    await expectDeterministicReplay([handle]);
  });

  it('refuses a title tool called with {"query": …} as the release\'s server does: counted, not run, its message as the observation', async () => {
    const { verdict, trace, handle } = await verify(prompts(` (${RELEASED_TITLE_TOOL_MARKER})`), `${harness.prefix}-released-title`);
    expect(verdict).toMatchObject({ label: 'REFUTED', methodLabel: 'False' });
    expect(trace.toolCalls).toBe(1);
    expect(verdict.usage.toolCalls).toBe(1);
    expect(trace.steps[0]).toMatchObject({ action: { tool: 'extract_key_facts', args: { query: CLAIM } }, isError: true });
    expect(trace.steps[0]!.observation).toBe(`[TextContent(type='text', text="Input validation error: 'title' is a required property", annotations=None, meta=None)]`);
    expect(verdict.transcript!.toolCalls ?? []).toHaveLength(0);
    await expectDeterministicReplay([handle]);
  });

  it('does not make a call whose verity tool the toolset leaves out (the parity bench: no offline scholar provider); it still counts', async () => {
    const { verdict, trace, handle } = await verify(prompts(), `${harness.prefix}-released-toolset`, ['search_wikipedia']);
    expect(verdict).toMatchObject({ label: 'REFUTED', methodLabel: 'False', usage: { toolCalls: 1 } });
    expect(trace.steps[0]).toMatchObject({ action: { tool: 'search_google' }, isError: true });
    expect(trace.steps[0]!.observation).toBe(`[TextContent(type='text', text="Error: web_search is not in this verification's toolset", annotations=None, meta=None)]`);
    await expectDeterministicReplay([handle]);
  });

  it('without an answer after five steps returns "True" without another LLM call', async () => {
    const { verdict, trace, handle } = await verify(prompts(` (${RELEASED_NO_ANSWER_MARKER})`), `${harness.prefix}-released-tmax`);
    expect(verdict).toMatchObject({ label: 'SUPPORTED', methodLabel: 'True' });
    expect(trace).toMatchObject({ fallback: true, toolCalls: 0 });
    expect(trace.steps.map((step) => step.kind)).toEqual(['noTool', 'noTool', 'noTool', 'noTool', 'noTool']);
    const calls = verdict.transcript!.llmCalls;
    expect(calls).toHaveLength(6);
    const last = await messagesOf(calls[5]!.requestHash);
    expect(last?.[0]?.content).toContain(`History: ${Array.from({ length: 4 }, () => 'Thought: Still thinking.\nAction: No tool needed, continuing reasoning.').join('\n')}\n`);
    await expectDeterministicReplay([handle]);
  });
});
