import { describe, expect, it } from 'vitest';
import { MERMAID_LABEL_SETS } from '../../src/methods/mermaid/sandbox/mermaid-settings';
import {
  classifyAnswer,
  entitiesOf,
  historyLines,
  interpretStep,
  toolArguments,
  verdictLabelOf,
  type MermaidToolEntry,
} from '../../src/methods/mermaid/sandbox/mermaid-protocol';

const TOOLS: MermaidToolEntry[] = [
  { name: 'search_wikipedia', description: 'Search Wikipedia', parameters: {}, primaryArgument: 'query' },
  { name: 'get_article', description: 'Full article', parameters: {}, primaryArgument: 'title' },
  { name: 'web_search', description: 'Search the web', parameters: {}, primaryArgument: 'query' },
];
const CLAIM = 'The United States has 94 operating reactors';

describe('MERMAID executor protocol (Algorithm 1, lines 13-27)', () => {
  it('gives the answer priority over an action in the same reply', () => {
    const decision = interpretStep({ thought: 't', action: { name: 'web_search', input: 'x' }, answer: 'True' }, TOOLS, CLAIM, 'paper');
    expect(decision).toEqual({ kind: 'answer', thought: 't', answer: 'True' });
  });

  it('treats "none" and empty action names as no tool, and reports unknown tools', () => {
    expect(interpretStep({ thought: 't', action: { name: 'None' } }, TOOLS, CLAIM, 'paper').kind).toBe('noTool');
    expect(interpretStep({ thought: 't', action: { name: '' } }, TOOLS, CLAIM, 'paper').kind).toBe('noTool');
    expect(interpretStep({ thought: 't', action: { name: 'search_arxiv_now' } }, TOOLS, CLAIM, 'paper')).toMatchObject({ kind: 'unknownTool', name: 'search_arxiv_now' });
    expect(interpretStep({ thought: 'only thinking' }, TOOLS, CLAIM, 'paper').kind).toBe('thought');
  });

  it('maps the code aliases (wikipedia, google) and the paper tool names to verity tools', () => {
    expect(interpretStep({ action: { name: 'Wikipedia', input: 'reactors' } }, TOOLS, CLAIM, 'paper')).toMatchObject({ kind: 'tool', tool: 'search_wikipedia' });
    expect(interpretStep({ action: { name: 'search_google', input: 'reactors' } }, TOOLS, CLAIM, 'paper')).toMatchObject({ kind: 'tool', tool: 'web_search' });
  });

  it('falls back to the claim when the action has no input', () => {
    expect(interpretStep({ action: { name: 'web_search' } }, TOOLS, CLAIM, 'paper')).toMatchObject({ input: CLAIM, args: { query: CLAIM } });
  });

  it('puts a string input into the first required argument in paper mode, and always sends {query} in code-compat', () => {
    const article = TOOLS[1]!;
    expect(toolArguments(article, 'Nuclear power in the United States', 'paper')).toEqual({ title: 'Nuclear power in the United States' });
    expect(toolArguments(article, { title: 'X', extra: 1 }, 'paper')).toEqual({ title: 'X', extra: 1 });
    expect(toolArguments(article, 'Nuclear power in the United States', 'code-compat')).toEqual({ query: 'Nuclear power in the United States' });
  });

  it('writes history lines in the code wording', () => {
    const tool = interpretStep({ thought: 'look', action: { name: 'web_search', input: 'q' } }, TOOLS, CLAIM, 'paper');
    expect(historyLines(tool, TOOLS, '{"results":[]}')).toEqual(['Thought: look', 'Action: Used web_search with input: q', 'Observation: {"results":[]}']);
    const unknown = interpretStep({ thought: 'x', action: { name: 'bing' } }, TOOLS, CLAIM, 'paper');
    expect(historyLines(unknown, TOOLS)[1]).toBe("Action: Tool 'bing' not found. Available: search_wikipedia, get_article, web_search");
    expect(historyLines({ kind: 'noTool', thought: 'x' }, TOOLS)[1]).toBe('Action: No tool needed, continuing reasoning.');
  });
});

describe('MERMAID entities and labels', () => {
  it('takes subjects and objects (also object lists) as memory keys, skipping empty ones', () => {
    const entities = entitiesOf({
      triplets: [
        { subject: ' The United States ', relation: 'has', object: '94 operating reactors' },
        { subject: '', relation: 'is', object: ['France', ' '] },
      ],
      topic: 'Energy',
    });
    expect(entities).toEqual(['The United States', '94 operating reactors', 'France']);
  });

  it('classifies answers per label set; off-schema answers are invalid and count as negative', () => {
    const tf = MERMAID_LABEL_SETS['true-false'];
    expect(classifyAnswer('True', tf)).toBe('positive');
    expect(classifyAnswer(' "yes". ', tf)).toBe('positive');
    expect(classifyAnswer('FALSE', tf)).toBe('negative');
    expect(classifyAnswer('INSUFFICIENT_INFORMATION', tf)).toBe('invalid');
    const hover = MERMAID_LABEL_SETS.hover;
    expect(classifyAnswer('NOT_SUPPORTED', hover)).toBe('negative');
    expect(classifyAnswer('SUPPORTED', hover)).toBe('positive');
    expect(classifyAnswer('True', hover)).toBe('invalid');
    expect(classifyAnswer('CONTRADICT', MERMAID_LABEL_SETS.scifact)).toBe('negative');
    expect(verdictLabelOf('positive')).toBe('SUPPORTED');
    expect(verdictLabelOf('invalid')).toBe('REFUTED');
  });
});

describe('MERMAID reads documented aliases of its labels (issue 37 §2.2)', () => {
  const scifact = MERMAID_LABEL_SETS.scifact;
  it('on SciFact "SUPPORTED", "Supports" and "True" are the positive label, not REFUTED', () => {
    for (const answer of ['SUPPORTED', 'Supports', 'True']) expect(classifyAnswer(answer, scifact, { aliases: true })).toBe('positive');
    for (const answer of ['REFUTED', 'Contradicts', 'False']) expect(classifyAnswer(answer, scifact, { aliases: true })).toBe('negative');
    expect(classifyAnswer('NOT SUPPORTED', MERMAID_LABEL_SETS.hover, { aliases: true })).toBe('negative');
  });

  it('an off-vocabulary answer stays invalid; without the patch (recorded executions) the exact match replays', () => {
    expect(classifyAnswer('maybe', scifact, { aliases: true })).toBe('invalid');
    expect(classifyAnswer('SUPPORTED', scifact)).toBe('invalid');
  });
});
