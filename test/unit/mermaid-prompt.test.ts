import { describe, expect, it } from 'vitest';
import { parseExecutorPrompt, renderExecutorPrompt, type ExecutorPromptInput } from '../../src/methods/mermaid/executor-prompt';
import { executorStepOutput, forcedAnswerOutput } from '../../src/methods/mermaid/tasks';
import { primaryArgumentOf, toolCatalog } from '../../src/methods/mermaid/tool-catalog';
import { MERMAID_LABEL_SETS, resolveMermaidSettings } from '../../src/methods/mermaid/sandbox/mermaid-settings';
import { mermaidResponders, simulatedTriplet } from '../../src/methods/mermaid/simulator-responder';
import type { PromptReading } from '../../src/simulator/prompt-reader';

const TOOLS = toolCatalog(
  [
    { name: 'get_article', description: 'Full article', inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
    { name: 'search_wikipedia', description: 'Search Wikipedia', inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] } },
    { name: 'web_search', description: 'Search the web', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  ],
  ['search_wikipedia', 'web_search', 'scholar_search', 'get_article'],
);

const INPUT: ExecutorPromptInput = {
  claim: 'The United States has 94 operating reactors',
  decomposition: { triplets: [{ subject: 'The United States', relation: 'has', object: '94 operating reactors' }], topic: 'Energy/Nuclear Energy' },
  memory: ["[Memory] Previous evidence for 'us reactors': The United States has 94 operating nuclear reactors\nin 2023."],
  history: ['Thought: search', 'Action: Used search_wikipedia with input: The United States', 'Observation: {"results": []}'],
  tools: TOOLS,
  labels: MERMAID_LABEL_SETS.hover,
  fidelity: 'paper',
};

const run = (schema: string, system: string, user = '') =>
  mermaidResponders[schema]!({ claim: INPUT.claim } as PromptReading, {}, [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ]) as Record<string, unknown>;

describe('MERMAID tool catalog', () => {
  it('keeps the requested tools the worker serves, in order, with the argument a string input goes to', () => {
    expect(TOOLS.map((tool) => [tool.name, tool.primaryArgument])).toEqual([
      ['search_wikipedia', 'query'],
      ['web_search', 'query'],
      ['get_article', 'title'],
    ]);
    expect(primaryArgumentOf({ properties: { limit: { type: 'integer' } } })).toBe('query');
  });
});

describe('MERMAID executor prompt', () => {
  it('renders the paper slots (claim, background, a separate memory block, tools with their one argument) and reads them back', () => {
    const { system, user } = renderExecutorPrompt({ ...INPUT, toolHints: true });
    expect(system).toContain("Memory and Previous steps' history:");
    expect(system).toContain('- get_article(title): Full article');
    expect(system).toContain('{"thought": "your reasoning", "next": {"action": {"name": "tool_name", "input": "the tool\'s argument"}}}');
    expect(system).toContain('Example: {"thought": "I need to know when the Eiffel Tower was completed.", "next": {"action": {"name": "search_wikipedia", "input": "Eiffel Tower"}}}');
    expect(system).toContain('{"thought": "your reasoning", "next": {"answer": "SUPPORTED"}} or {"thought": "your reasoning", "next": {"answer": "NOT_SUPPORTED"}}');
    expect(system).toContain('"name" is one of: search_wikipedia, web_search, get_article. One tool call per step');
    expect(user).toBe(`Continue reasoning about: ${INPUT.claim}`);
    const reading = parseExecutorPrompt(system);
    expect(reading).toMatchObject({ claim: INPUT.claim, decomposition: INPUT.decomposition, tools: ['search_wikipedia', 'web_search', 'get_article'], labels: INPUT.labels, forced: false });
    expect(reading.memory).toHaveLength(1);
    expect(reading.memory[0]).not.toContain('\n');
    expect(reading.history).toEqual(INPUT.history);
  });

  // Issue 37 (7): the example step, the one-call rule and "call a tool while …" are verity's, not the paper's (A.2).
  it.each(['paper', 'code-compat'] as const)('%s fidelity sends no tool-use hints by default; toolHints brings them back', (fidelity) => {
    const { toolHints } = resolveMermaidSettings({ fidelity });
    const { system } = renderExecutorPrompt({ ...INPUT, fidelity, toolHints });
    expect(system).not.toContain('Example:');
    expect(system).not.toContain('One tool call per step');
    expect(system).not.toContain('never both');
    expect(system).toContain('To use a tool: {"thought": "your reasoning", "next": {"action"');
    expect(system).toContain('When the evidence is sufficient, answer immediately.');
    const hinted = renderExecutorPrompt({ ...INPUT, fidelity, toolHints: true }).system;
    expect(hinted).toContain('Example:');
    expect(hinted).toContain('One tool call per step');
    expect(parseExecutorPrompt(system)).toMatchObject({ tools: parseExecutorPrompt(hinted).tools, labels: INPUT.labels });
  });

  it('code-compat lists tool names only and puts memory at the head of the history', () => {
    const { system } = renderExecutorPrompt({ ...INPUT, fidelity: 'code-compat' });
    expect(system).toContain('Available tools: search_wikipedia, web_search, get_article');
    expect(system).not.toContain('Memory:');
    const slot = system.split("Previous steps' history:\n")[1]!.split('\n');
    expect(slot[0]).toMatch(/^\[Memory\] /);
    expect(parseExecutorPrompt(system).tools).toEqual(['search_wikipedia', 'web_search', 'get_article']);
  });

  it('leaves out the background in the single-agent ablation and says when no tool is available', () => {
    const { system } = renderExecutorPrompt({ ...INPUT, decomposition: null, tools: [] }, true);
    expect(system).not.toContain('Background:');
    expect(system).not.toContain('"action"');
    expect(system).toContain('{"thought": "your reasoning", "answer": "SUPPORTED"} or {"thought": "your reasoning", "answer": "NOT_SUPPORTED"}');
    expect(parseExecutorPrompt(system).labels).toEqual(MERMAID_LABEL_SETS.hover);
    expect(parseExecutorPrompt(system)).toMatchObject({ tools: [], forced: true, decomposition: null });
  });
});

describe('MERMAID simulator policy (spec §10.1 mock policy)', () => {
  it('decomposes a claim into (subject, verb, object) without a leading time clause', () => {
    expect(simulatedTriplet('In 1980, the oldest justice on the Supreme Court was William O. Douglas.')).toEqual({
      subject: 'the oldest justice on the Supreme Court',
      relation: 'was',
      object: 'William O. Douglas',
    });
  });

  it('answers at once when the recalled memory mentions an entity of the claim', () => {
    const step = executorStepOutput.parse(run('mermaid_executor_step', renderExecutorPrompt({ ...INPUT, history: [] }).system));
    expect(step.next).not.toHaveProperty('action');
    expect(['SUPPORTED', 'NOT_SUPPORTED']).toContain((step.next as { answer: string }).answer);
  });

  it('without memory searches Wikipedia for the subject, then the web, then answers', () => {
    const empty = { ...INPUT, memory: [], history: [] };
    const step = (input: ExecutorPromptInput) => executorStepOutput.parse(run('mermaid_executor_step', renderExecutorPrompt(input).system)).next;
    expect(step(empty)).toEqual({ action: { name: 'search_wikipedia', input: 'The United States' } });
    const afterOne = { ...empty, history: INPUT.history };
    expect(step(afterOne)).toMatchObject({ action: {
      name: 'web_search',
      input: 'The United States has 94 operating reactors',
    } });
    const afterTwo = { ...afterOne, history: [...INPUT.history, 'Thought: more', 'Action: Used web_search with input: x', 'Observation: nothing'] };
    expect(step(afterTwo)).toMatchObject({ answer: expect.any(String) });
  });

  it('answers the forced-answer prompt in the label set', () => {
    const forced = forcedAnswerOutput.parse(run('mermaid_forced_answer', renderExecutorPrompt({ ...INPUT, memory: [] }, true).system));
    expect(['SUPPORTED', 'NOT_SUPPORTED']).toContain(forced.answer);
  });
});
