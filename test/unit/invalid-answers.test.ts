import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { describeWorkflowFailure } from '../../src/cli/workflow-failure';
import { LlmOutputInvalidError, toTemporalFailure } from '../../src/llm/errors';
import { correctionMessages, readInvalidOutputDetails, type PaidInvalidCall } from '../../src/shared/invalid-answer';
import { isToolMadAbstention, TOOL_MAD_ABSTAINING_ANSWER, toolMadNoAnswerLabel } from '../../src/shared/methods/invalid-answer-fallbacks';
import { FAILED_AFTER_SPENDING_TYPE, findLimitReached, spentBeforeLimit } from '../../src/shared/verification-limits';
import { LlmMeter } from '../../workflows/llm-meter';

const PAID: PaidInvalidCall = {
  model: 'gpt-4o-mini',
  temperature: 0,
  seed: 7,
  promptVersion: 'fire.step@1',
  requestHash: 'abc',
  promptTokens: 40,
  completionTokens: 12,
  totalTokens: 52,
  costUsd: 0.0001,
};

describe('a paid invalid answer', () => {
  it('crosses Temporal with its usage and identity in the failure details', () => {
    const failure = toTemporalFailure(new LlmOutputInvalidError('gpt-4o-mini answered without parseable JSON', 'gpt-4o-mini', '{"answer": "Tr <<truncated', PAID));
    expect(failure).toMatchObject({ type: 'LlmOutputInvalid', nonRetryable: true });
    expect(readInvalidOutputDetails(failure.details)).toEqual({ rawExcerpt: '{"answer": "Tr <<truncated', call: PAID });
  });

  it('reads details recorded before usage was attached (or malformed ones) as an excerpt only', () => {
    expect(readInvalidOutputDetails([{ rawExcerpt: 'x' }])).toEqual({ rawExcerpt: 'x' });
    expect(readInvalidOutputDetails([{ rawExcerpt: 'x', call: { ...PAID, totalTokens: 'many' } }])).toEqual({ rawExcerpt: 'x' });
    expect(readInvalidOutputDetails(undefined)).toEqual({ rawExcerpt: '' });
  });

  it('counts in the meter like any paid call (so a token limit sees it) and is marked invalid in the transcript', () => {
    const meter = new LlmMeter();
    meter.recordInvalidLlmCall('fire.step', 'fire · step', 'LlmOutputInvalid: not JSON', { rawExcerpt: 'x'.repeat(500), call: PAID });
    meter.recordInvalidLlmCall('fire.step', 'fire · step', 'LlmOutputInvalid: not JSON', { rawExcerpt: 'y', call: PAID });
    const summary = meter.summary();
    expect(summary.usage).toMatchObject({ llmCalls: 2, cachedLlmCalls: 0, invalidAnswers: 2, promptTokens: 80, completionTokens: 24, totalTokens: 104 });
    expect(summary.usage.costUsd).toBeCloseTo(0.0002, 12);
    expect(summary.promptVersions).toEqual(['fire.step@1']);
    expect(summary.lastCall).toEqual({ model: 'gpt-4o-mini', temperature: 0, seed: 7 });
    expect(summary.transcript?.llmCalls[0]).toMatchObject({ invalid: true, seed: 7, promptTokens: 40, error: 'LlmOutputInvalid: not JSON' });
    expect(summary.transcript?.llmCalls[0]?.rawExcerpt).toHaveLength(301);
    expect(findLimitReached(summary.usage, 0, { tokens: 100 })?.limit).toBe('tokens');
  });

  it('without a paid call (nothing known about it) is counted as invalid only', () => {
    const meter = new LlmMeter();
    meter.recordInvalidLlmCall('rag.verdict', 'rag · verdict', 'LlmOutputInvalid', { rawExcerpt: '' });
    expect(meter.summary().usage).toMatchObject({ llmCalls: 0, invalidAnswers: 1, totalTokens: 0 });
  });

  it('absorbs child summaries recorded before invalid answers were counted', () => {
    const meter = new LlmMeter();
    const { invalidAnswers: _absent, ...old } = new LlmMeter().summary().usage;
    meter.absorb({ usage: { ...old, llmCalls: 3 }, promptVersions: [] });
    expect(meter.usage).toMatchObject({ llmCalls: 3, invalidAnswers: 0 });
  });
});

describe('a verification that failed after spending', () => {
  it('hands its spend to the sweep through the failure chain', () => {
    const failure = { message: 'child failed', cause: { message: 'spent', type: FAILED_AFTER_SPENDING_TYPE, details: [{ usage: { totalTokens: 52, costUsd: 0.0001 } }], cause: { message: '500', type: 'LlmServerError' } } };
    expect(spentBeforeLimit(failure)).toEqual({ tokens: 52, costUsd: 0.0001 });
  });
});

describe('the re-ask after an invalid answer', () => {
  it('repeats the invalid answer and names the problem and every required field', () => {
    const messages = correctionMessages({ problem: 'gpt-4o-mini answered JSON that does not match the schema:\n label: Invalid option', rawExcerpt: '{"label": "TRUE"}' }, [
      'label',
      'rationale',
      'citedPassageIds',
    ]);
    expect(messages).toEqual([
      { role: 'assistant', content: '{"label": "TRUE"}' },
      {
        role: 'user',
        content:
          'Your previous answer was not valid (gpt-4o-mini answered JSON that does not match the schema: label: Invalid option). Answer again with one complete JSON object with exactly these fields: "label", "rationale", "citedPassageIds", and nothing else.',
      },
    ]);
  });

  it('leaves out an empty answer', () => {
    expect(correctionMessages({ problem: 'empty', rawExcerpt: '  ' }, ['query']).map((m) => m.role)).toEqual(['user']);
  });
});

describe('Tool-MAD fallbacks', () => {
  it('a debate nobody labelled ends with the label set NEI label', () => {
    expect(toolMadNoAnswerLabel('fever')).toBe('NOT ENOUGH INFO');
    expect(toolMadNoAnswerLabel('averitec')).toBe('NOT ENOUGH EVIDENCE');
    expect(toolMadNoAnswerLabel('binary')).toBe('NOT ENOUGH INFO');
  });

  it('an abstaining debater is recognised by its argument alone', () => {
    expect(isToolMadAbstention(TOOL_MAD_ABSTAINING_ANSWER)).toBe(true);
    expect(isToolMadAbstention('The claim is supported.\nSUPPORTS')).toBe(false);
  });
});

describe('the cause of a failed workflow, in one line', () => {
  it('names the innermost message and its failure type', () => {
    const cause = ApplicationFailure.create({ message: 'model or endpoint not found (404): no route\nmore lines', type: 'ConfigurationError', nonRetryable: true });
    const err = new WorkflowFailedError('Workflow execution failed', cause, 'NON_RETRYABLE_FAILURE');
    expect(describeWorkflowFailure(err)).toBe('model or endpoint not found (404): no route [ConfigurationError]');
  });
});
