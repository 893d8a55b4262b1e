import { describe, expect, it } from 'vitest';
import { fitToContext, promptBudgetOf } from '../../src/llm/context-budget';
import { classifyError, LlmContextExceededError } from '../../src/llm/errors';
import { trimEvidence } from '../../src/llm/evidence-trim';
import { MIN_OBSERVATION_CHARS, OBSERVATION_PREFIX, trimObservations } from '../../src/llm/observation-trim';
import { parseEvidence, renderClaim, renderEvidence } from '../../src/llm/prompt-conventions';
import { CHARS_PER_TOKEN, estimatePromptTokens, estimateTokens } from '../../src/llm/token-estimate';
import type { ChatMessage } from '../../src/llm/types';
import { FAILURE_TYPES } from '../../src/shared/constants';

const passage = (i: number) => ({ id: `doc${i}#0`, text: `Passage ${i} says ${'something relevant about the claim '.repeat(8)}` });
const passages = (k: number) => Array.from({ length: k }, (_, i) => passage(i + 1));

function prompt(k: number, system = 'You verify claims.'): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: [renderClaim('Paris is the capital of France.'), '', renderEvidence(passages(k)), '', 'Answer now.'].join('\n') },
  ];
}

describe('token estimate', () => {
  it('counts 3.5 characters per token, rounded up, plus a per-message overhead', () => {
    expect(CHARS_PER_TOKEN).toBe(3.5);
    expect(estimateTokens('x'.repeat(35))).toBe(10);
    expect(estimateTokens('x'.repeat(36))).toBe(11);
    expect(estimatePromptTokens([{ role: 'user', content: 'x'.repeat(35) }])).toBe(14);
  });
});

describe('trimEvidence', () => {
  it('drops the lowest-ranked passages first and keeps the rest of the prompt', () => {
    const messages = prompt(12);
    const lineTokens = estimateTokens(`[doc12#0] ${passage(12).text}`);
    const trim = trimEvidence(messages, lineTokens * 3);
    expect(trim).toMatchObject({ passagesBefore: 12, freedEnough: true });
    const kept = parseEvidence(trim.messages[1]!.content).map((p) => p.id);
    expect(kept.slice(0, 8)).toEqual(passages(8).map((p) => p.id));
    expect(kept).not.toContain('doc12#0');
    expect(trim.messages[0]).toEqual(messages[0]);
    expect(trim.messages[1]!.content).toMatch(/^Claim: Paris/);
    expect(trim.messages[1]!.content).toMatch(/Answer now\.$/);
    expect(messages[1]!.content).toContain('doc12#0'); // pure
  });

  it('truncates the last passage it needs instead of dropping it when that frees enough', () => {
    const trim = trimEvidence(prompt(3), 10);
    expect(trim).toMatchObject({ passagesBefore: 3, passagesAfter: 3, truncated: 1, freedEnough: true });
    const last = parseEvidence(trim.messages[1]!.content).at(-1)!;
    expect(last.id).toBe('doc3#0');
    expect(last.text.endsWith('…')).toBe(true);
    expect(last.text.length).toBeLessThan(passage(3).text.length - 10 * CHARS_PER_TOKEN + 2);
  });

  it('shrinks several evidence blocks evenly, the largest first', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: renderEvidence(passages(4)) },
      { role: 'user', content: renderEvidence(passages(2).map((p) => ({ ...p, id: `b-${p.id}` }))) },
    ];
    const lineTokens = estimateTokens(`[doc1#0] ${passage(1).text}`) + 1;
    const trim = trimEvidence(messages, lineTokens * 3);
    expect(parseEvidence(trim.messages[0]!.content)).toHaveLength(2);
    expect(parseEvidence(trim.messages[1]!.content)).toHaveLength(1);
  });

  it('says so when all evidence is not enough', () => {
    expect(trimEvidence(prompt(2), 10_000)).toMatchObject({ passagesAfter: 0, freedEnough: false });
  });
});

describe('fitToContext', () => {
  it('leaves a prompt that fits alone', () => {
    const messages = prompt(3);
    expect(fitToContext(messages, { model: 'm', contextTokens: 16_384, maxTokens: 512 })).toEqual({ messages });
  });

  it('trims evidence to fit a 2,048-token window and says how in a note', () => {
    const messages = prompt(40);
    const fitted = fitToContext(messages, { model: 'm', contextTokens: 2048, maxTokens: 256 });
    const kept = parseEvidence(fitted.messages[1]!.content).length;
    expect(estimatePromptTokens(fitted.messages)).toBeLessThanOrEqual(2048 - 256);
    expect(kept).toBeGreaterThan(5);
    expect(kept).toBeLessThan(40);
    expect(fitted.note).toMatch(new RegExp(`^evidence trimmed: 40 → ${kept} passages(, 1 truncated)? to fit 2,048-token window$`));
  });

  it('reserves a quarter of the window (at most 1,024 tokens) for an answer without max_tokens', () => {
    expect(promptBudgetOf({ model: 'm', contextTokens: 2048 })).toBe(1536);
    expect(promptBudgetOf({ model: 'm', contextTokens: 32_768 })).toBe(31_744);
    expect(promptBudgetOf({ model: 'm', contextTokens: 2048, maxTokens: 100 })).toBe(1948);
  });

  it('fails non-retryably, in one line naming the window, when even no evidence fits', () => {
    const messages = prompt(5, 'Long instructions. '.repeat(400));
    const error = (() => {
      try {
        fitToContext(messages, { model: 'qwen-1.5b', contextTokens: 2048, maxTokens: 256 });
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(LlmContextExceededError);
    const { message } = error as Error;
    expect(message).toMatch(/does not fit qwen-1\.5b's 2,048-token context window even without evidence/);
    expect(message).not.toContain('\n');
    expect(classifyError(error)).toMatchObject({ retryable: false, type: FAILURE_TYPES.llmContextExceeded });
  });
});

describe('tool observations of a ReAct history (MERMAID)', () => {
  const observation = (i: number) => `Observation: {"results":[{"title":"Result ${i}","text":"${`fact ${i} `.repeat(300)}"}]}`.slice(0, 2000 + 'Observation: '.length);
  const history = (steps: number) =>
    Array.from({ length: steps }, (_, i) => [`Thought: step ${i + 1}`, `Action: Used search with input: query ${i + 1}`, observation(i + 1)]).flat();
  const reactPrompt = (steps: number): ChatMessage[] => [
    { role: 'system', content: ['You are a ReAct agent.', renderClaim('Paris is the capital of France.'), 'History:', ...history(steps), 'Rules: output only the JSON.'].join('\n') },
    { role: 'user', content: 'Continue reasoning about: Paris is the capital of France.' },
  ];

  it('shortens the oldest observations first, keeps every line and the newest observation whole', () => {
    const messages = reactPrompt(5);
    expect(estimatePromptTokens(messages)).toBeGreaterThan(promptBudgetOf({ model: 'm', contextTokens: 2048, maxTokens: 400 }));
    const fitted = fitToContext(messages, { model: 'm', contextTokens: 2048, maxTokens: 400 });
    expect(estimatePromptTokens(fitted.messages)).toBeLessThanOrEqual(promptBudgetOf({ model: 'm', contextTokens: 2048, maxTokens: 400 }));
    const before = messages[0]!.content.split('\n');
    const after = fitted.messages[0]!.content.split('\n');
    expect(after).toHaveLength(before.length);
    expect(after.filter((line) => line.startsWith('Thought: ') || line.startsWith('Action: '))).toEqual(before.filter((line) => line.startsWith('Thought: ') || line.startsWith('Action: ')));
    const observations = after.filter((line) => line.startsWith(OBSERVATION_PREFIX));
    expect(observations.at(-1)).toBe(observation(5));
    expect(observations[0]!.length).toBeLessThan(observation(1).length);
    expect(observations[0]!.endsWith('…')).toBe(true);
    expect(fitted.note).toMatch(/^evidence trimmed: \d tool observations? shortened to fit 2,048-token window$/);
  });

  it('takes no more than it must: one observation cut by the overflow', () => {
    const trim = trimObservations(reactPrompt(3), 100);
    expect(trim).toMatchObject({ shortened: 1, freedEnough: true });
    const first = trim.messages[0]!.content.split('\n').find((line) => line.startsWith(OBSERVATION_PREFIX))!;
    expect(observation(1).length - first.length).toBe(Math.ceil(100 * CHARS_PER_TOKEN));
  });

  it('keeps MIN_OBSERVATION_CHARS of each and fails in one line when the history still does not fit', () => {
    const trim = trimObservations(reactPrompt(3), 1e6);
    expect(trim.freedEnough).toBe(false);
    for (const line of trim.messages[0]!.content.split('\n').filter((l) => l.startsWith(OBSERVATION_PREFIX))) {
      expect(line.slice(OBSERVATION_PREFIX.length, -1).trimEnd().length).toBeGreaterThanOrEqual(MIN_OBSERVATION_CHARS - 1);
      expect(line.length).toBeLessThanOrEqual(OBSERVATION_PREFIX.length + MIN_OBSERVATION_CHARS + 1);
    }
    expect(() => fitToContext(reactPrompt(40), { model: 'qwen-0.5b', contextTokens: 2048, maxTokens: 400 })).toThrow(/does not fit qwen-0\.5b's 2,048-token context window even without evidence/);
  });
});
