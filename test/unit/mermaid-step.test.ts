import { describe, expect, it } from 'vitest';
import { renderExecutorPrompt } from '../../src/methods/mermaid/executor-prompt';
import { executorStepOutput, forcedAnswerOutput, mermaidDecompositionOutput } from '../../src/methods/mermaid/tasks';
import { MERMAID_LABEL_SETS } from '../../src/methods/mermaid/sandbox/mermaid-settings';
import { interpretStep, type MermaidToolEntry } from '../../src/methods/mermaid/sandbox/mermaid-protocol';
import { executorStepOf } from '../../src/methods/mermaid/sandbox/mermaid-step';

const TOOLS: MermaidToolEntry[] = [
  { name: 'search_wikipedia', description: 'Search Wikipedia', parameters: {}, primaryArgument: 'query' },
  { name: 'get_article', description: 'Full article', parameters: {}, primaryArgument: 'title' },
  { name: 'web_search', description: 'Search the web', parameters: {}, primaryArgument: 'query' },
];
const CLAIM = 'The United States has 94 operating reactors';

describe('MERMAID executor step: exactly one of a tool call or an answer', () => {
  it('accepts the step schema: a thought and one tool call with a string input, or a thought and an answer', () => {
    expect(executorStepOutput.parse({ thought: 't', next: { action: { name: 'web_search', input: 'reactors' } } })).toEqual({
      thought: 't',
      next: { action: { name: 'web_search', input: 'reactors' } },
    });
    expect(executorStepOutput.parse({ thought: 't', next: { answer: 'True' } })).toEqual({ thought: 't', next: { answer: 'True' } });
  });

  it('rejects a step with neither, a tool verity does not have, or a reply that is not an object', () => {
    expect(executorStepOutput.safeParse({ thought: 't', next: {} }).success).toBe(false);
    expect(executorStepOutput.safeParse({ thought: 't' }).success).toBe(false);
    expect(executorStepOutput.safeParse({ thought: 't', action: null, answer: null }).success).toBe(false);
    expect(executorStepOutput.safeParse({ thought: 't', next: { action: { name: 'teleport', input: 'x' } } }).success).toBe(false);
    expect(executorStepOutput.safeParse('True').success).toBe(false);
  });

  it("lifts the paper's flat format (servers that ignore the schema): the answer wins over an action, as in the code", () => {
    expect(executorStepOutput.parse({ thought: 't', action: { name: 'web_search', input: 'x' }, answer: 'False' })).toEqual({ thought: 't', next: { answer: 'False' } });
    expect(executorStepOutput.parse({ thought: 't', next: { action: { name: 'web_search', input: 'x' }, answer: 'True' } })).toEqual({ thought: 't', next: { answer: 'True' } });
    expect(executorStepOutput.parse({ answer: 'True' })).toEqual({ thought: '', next: { answer: 'True' } });
  });

  it('lifts a flat action: aliases and case mapped, an object input made a string, a missing input empty', () => {
    expect(executorStepOutput.parse({ thought: 't', action: { name: 'Wikipedia', reason: 'why', input: 'reactors' } }).next).toEqual({
      action: { name: 'search_wikipedia', input: 'reactors' },
    });
    expect(executorStepOutput.parse({ thought: 't', action: { name: 'get_article', input: { title: 'Nuclear power' } } }).next).toEqual({
      action: { name: 'get_article', input: 'Nuclear power' },
    });
    expect(executorStepOutput.parse({ thought: 't', action: { name: 'web_search', input: { query: 'a', limit: 3 } } }).next).toEqual({
      action: { name: 'web_search', input: '{"query":"a","limit":3}' },
    });
    expect(executorStepOutput.parse({ thought: 't', action: { name: 'web_search' } }).next).toEqual({ action: { name: 'web_search', input: '' } });
  });

  it('gives the workflow the flat step it reads: recorded replies unchanged, new ones translated (empty input: the claim)', () => {
    const recorded = { thought: 't', action: { name: 'web_search', reason: 'r', input: { query: 'q' } }, answer: null };
    expect(executorStepOf(recorded)).toBe(recorded);
    expect(executorStepOf({ thought: 't', next: { answer: 'True' } })).toEqual({ thought: 't', answer: 'True' });
    const tool = executorStepOf({ thought: 't', next: { action: { name: 'get_article', input: 'Nuclear power' } } });
    expect(interpretStep(tool, TOOLS, CLAIM, 'paper')).toMatchObject({ kind: 'tool', tool: 'get_article', args: { title: 'Nuclear power' }, input: 'Nuclear power' });
    const empty = executorStepOf({ thought: 't', next: { action: { name: 'web_search', input: ' ' } } });
    expect(interpretStep(empty, TOOLS, CLAIM, 'paper')).toMatchObject({ kind: 'tool', input: CLAIM, args: { query: CLAIM } });
    expect(interpretStep(executorStepOf({ thought: 't', next: { answer: '' } }), TOOLS, CLAIM, 'paper').kind).toBe('thought');
  });
});

describe('MERMAID forced answer and decomposition (nullable, not optional)', () => {
  it('reads a forced answer without a thought, or in the step shape', () => {
    expect(forcedAnswerOutput.parse({ answer: 'True' })).toEqual({ thought: '', answer: 'True' });
    expect(forcedAnswerOutput.parse({ thought: 't', next: { answer: 'False' } })).toEqual({ thought: 't', answer: 'False' });
    expect(forcedAnswerOutput.safeParse({ thought: 't' }).success).toBe(false);
  });

  it("fills a triplet's missing attributes with null, and the executor's Background leaves null attributes out", () => {
    const decomposition = mermaidDecompositionOutput.parse({ triplets: [{ subject: 'US', relation: 'has', object: 'reactors' }], topic: 'Energy' });
    expect(decomposition.triplets[0]).toEqual({ subject: 'US', relation: 'has', object: 'reactors', attributes: null });
    const { system } = renderExecutorPrompt({
      claim: CLAIM,
      decomposition,
      memory: [],
      history: [],
      tools: TOOLS,
      labels: MERMAID_LABEL_SETS['true-false'],
      fidelity: 'paper',
    });
    expect(system).toContain('Background: {"triplets":[{"subject":"US","relation":"has","object":"reactors"}],"topic":"Energy"}');
  });
});
