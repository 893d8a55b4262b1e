import { describe, expect, it } from 'vitest';
import '../../src/methods/tasks';
import { strictSchemaViolations } from '../../src/llm/strict-schema';
import { jsonSchemaOf } from '../../src/llm/structured-output';
import { getTask, registeredTaskIds } from '../../src/llm/task-registry';

// Every registered LLM task, so a task added later meets the same contracts: a schema strict servers
// accept, a prompt that names its output fields (for servers that ignore response_format), an answer budget.
const taskIds = registeredTaskIds().filter((id) => !id.startsWith('test.'));
// Plain-text tasks (a released code's own prompts, answered as written) ask for no JSON and keep the code's cap.
const jsonTaskIds = taskIds.filter((id) => getTask(id).answer !== 'text');
const textTaskIds = taskIds.filter((id) => getTask(id).answer === 'text');

const CLAIM = 'The Eiffel Tower was completed in 1889.';
const memoryItem = { title: 'Eiffel Tower', link: 'https://en.wikipedia.org/wiki/Eiffel_Tower', content: 'Completed in 1889.' };
const document = { id: 'd1', title: 'Eiffel Tower', text: 'The tower was completed in 1889.' };
const mermaidVariables = {
  claim: CLAIM,
  decomposition: { triplets: [{ subject: 'The Eiffel Tower', relation: 'was completed', object: '1889', attributes: null }], topic: 'History' },
  memory: [],
  history: [],
  tools: [{ name: 'web_search', description: 'Search the web', parameters: { type: 'object' }, primaryArgument: 'query' }],
  labels: { positive: 'True', negative: 'False' },
  fidelity: 'paper',
};

/** Variables to render each task's prompt with. A new task needs an entry here. */
const SAMPLE_VARIABLES: Record<string, unknown> = {
  'rag.verdict': { claim: CLAIM, passages: [document] },
  'llm-only.verdict': { claim: CLAIM },
  'rag.verdict-rationale-first': { claim: CLAIM, passages: [document] },
  'llm-only.verdict-rationale-first': { claim: CLAIM },
  'mermaid.decompose': { claim: CLAIM },
  'mermaid.executor-step': mermaidVariables,
  'mermaid.force-answer': mermaidVariables,
  'emulate.initialQuery': { claim: CLAIM, count: 2 },
  'emulate.searchRank': { query: 'Eiffel Tower', results: [{ position: 1, title: 'Eiffel Tower', link: memoryItem.link, snippet: 'Completed 1889' }] },
  'emulate.webPageExtractor': { url: memoryItem.link, pageText: 'The Eiffel Tower was completed in 1889.' },
  'emulate.selfContained': { claim: CLAIM, memory: [], result: memoryItem },
  'emulate.helpful': { claim: CLAIM, memory: [], result: memoryItem },
  'emulate.sufficient': { claim: CLAIM, memory: [memoryItem] },
  'emulate.classifier': { claim: CLAIM, memory: [memoryItem] },
  'emulate.additionalQuery': { claim: CLAIM, memory: [memoryItem], count: 1 },
  'fire.step': { claim: CLAIM, knowledge: [], attempt: 1 },
  'fire.finalAnswer': { claim: CLAIM, knowledge: [{ query: 'Eiffel Tower', result: 'Completed in 1889.' }], attempt: 1 },
  'tool-mad.query': { tool: 'rag', claim: CLAIM },
  'tool-mad.answer': { tool: 'search', claim: CLAIM, labels: ['SUPPORTS', 'REFUTES'], documents: [document] },
  'tool-mad.statements': { claim: CLAIM, answer: 'The tower was completed in 1889. SUPPORTS' },
  'tool-mad.verify-statements': { documents: [document], statements: ['The tower was completed in 1889.'] },
  'tool-mad.question': { answer: 'The tower was completed in 1889.', index: 1, count: 3 },
  'tool-mad.judge': {
    claim: CLAIM,
    labels: ['SUPPORTS', 'REFUTES'],
    rounds: [{ round: 1, turns: [{ debater: 'A', tool: 'rag', query: 'Eiffel Tower', documents: [document], answer: 'SUPPORTS' }] }],
  },
  'toe.claim-analysis': { claim: CLAIM },
  'toe.query-plan': { claim: CLAIM, category: 'historical', locale: 'international' },
  'toe.query': { claim: CLAIM, source: 'wikipedia', family: 'supporting', planned: ['Eiffel Tower'], issued: [] },
  'toe.clean': { claim: CLAIM, chunkId: 'd1#0', chunk: 'The tower was completed in 1889.' },
  'toe.analysis': { claim: CLAIM, documentId: 'd1', source: 'wikipedia', title: 'Eiffel Tower', url: memoryItem.link, statements: ['Completed in 1889.'] },
  'toe.decompose': { claim: CLAIM },
  'check.extract': { sentence: 'It was completed in 1889 and is 330 m tall.', context: 'The Eiffel Tower is in Paris. It was completed in 1889 and is 330 m tall.' },
  'check.decontextualise': { claim: 'It was completed in 1889.', context: 'The Eiffel Tower is in Paris. It was completed in 1889.' },
  'check.worthiness': { claim: CLAIM, context: CLAIM },
};

function renderedPrompt(id: string): string {
  const task = getTask(id);
  const variables = task.variables.parse(SAMPLE_VARIABLES[id]);
  return task.render(variables).map((message) => message.content).join('\n');
}

describe('every registered LLM task', () => {
  it('is registered (the methods register their tasks)', () => {
    expect(taskIds.length).toBeGreaterThanOrEqual(26);
  });

  it.each(taskIds)("%s sends an output schema that passes OpenAI's strict structured-output rules", (id) => {
    const task = getTask(id);
    expect(strictSchemaViolations(jsonSchemaOf(task.output))).toEqual([]);
    // A task that sends a narrower schema for its variables (MERMAID's label enum) must pass the same rules.
    if (task.constrainedOutput) expect(strictSchemaViolations(jsonSchemaOf(task.constrainedOutput(task.variables.parse(SAMPLE_VARIABLES[id]))))).toEqual([]);
  });

  it.each(jsonTaskIds)('%s names every output field in its prompt, as JSON, for servers that ignore the schema', (id) => {
    expect(SAMPLE_VARIABLES, `add sample variables for ${id}`).toHaveProperty([id]);
    const prompt = renderedPrompt(id);
    const properties = Object.keys((jsonSchemaOf(getTask(id).output) as { properties: Record<string, unknown> }).properties);
    for (const property of properties) expect(prompt, `${id}'s prompt names "${property}"`).toContain(`"${property}"`);
    expect(prompt).toMatch(/JSON/);
  });

  // A released code's cap is kept as it sends it: MERMAID's OpenAIBackend asks for max_completion_tokens 15000.
  it.each(textTaskIds)('%s reads the answer as { text } and has an answer budget within [1, 15000]', (id) => {
    const task = getTask(id);
    expect(Object.keys((jsonSchemaOf(task.output) as { properties: Record<string, unknown> }).properties)).toEqual(['text']);
    expect(task.maxTokens).toBeGreaterThanOrEqual(1);
    expect(task.maxTokens).toBeLessThanOrEqual(15_000);
  });

  it.each(jsonTaskIds)('%s has an answer budget (maxTokens) within [16, 4096]', (id) => {
    const { maxTokens } = getTask(id);
    expect(Number.isInteger(maxTokens)).toBe(true);
    expect(maxTokens).toBeGreaterThanOrEqual(16);
    expect(maxTokens).toBeLessThanOrEqual(4096);
  });
});
