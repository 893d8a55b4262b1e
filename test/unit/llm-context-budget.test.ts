import { describe, expect, it } from 'vitest';
import { fitToContext, promptBudgetOf } from '../../src/llm/context-budget';
import { classifyError, LlmContextExceededError } from '../../src/llm/errors';
import { trimEvidence } from '../../src/llm/evidence-trim';
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
