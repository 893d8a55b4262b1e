import { describe, expect, it } from 'vitest';
import { buildDocumentVerdict } from '../../src/check/document-verdict';
import { splitSentences } from '../../src/check/sentences';
import type { Verdict } from '../../src/shared/verify';

const text = 'The Eiffel Tower is in Paris. I think it is beautiful. The tower is in Paris.';
const verdict = (workflowId: string, label: Verdict['label']) => ({ workflowId, label, citedPassageIds: ['p1'], evidence: [{ id: 'p1' }, { id: 'p2' }] }) as unknown as Verdict;

describe('buildDocumentVerdict', () => {
  it('gives each claim its sentence span, label and evidence, reasons for the rest, and the scores', () => {
    const result = buildDocumentVerdict(
      {
        documentId: 'd1',
        text,
        method: 'rag',
        model: 'gpt-4o-mini',
        checkPrompts: { 'check.extract': '1' },
        claims: [
          { sentence: 0, extracted: 'The Eiffel Tower is in Paris.', claim: 'The Eiffel Tower is in Paris.', workflowId: 'w1' },
          { sentence: 1, extracted: 'I think it is beautiful.', claim: 'I think the Eiffel Tower is beautiful.', skipped: 'opinion' },
          { sentence: 2, extracted: 'The tower is in Paris.', claim: 'The Eiffel Tower is in Paris.', skipped: 'duplicate', duplicateOf: 0 },
          { sentence: 2, extracted: 'x', claim: 'The tower is tall.', workflowId: 'w2', failure: 'LlmOutputInvalid: no answer' },
          { sentence: 2, extracted: 'y', claim: 'The tower is old.', workflowId: 'w3' },
        ],
        unreadableSentences: [],
        runs: 2,
        f1K: 2,
      },
      splitSentences(text),
      new Map([['w1', verdict('w1', 'SUPPORTED')]]),
      new Date('2026-11-26T00:00:00Z'),
    );
    const [first, opinion, repeat, failed, missing] = result.claims;
    expect(first).toMatchObject({ label: 'SUPPORTED', evidenceIds: ['p1'], span: { start: 0, end: 29 }, sentenceText: 'The Eiffel Tower is in Paris.' });
    expect(text.slice(opinion!.span.start, opinion!.span.end)).toBe('I think it is beautiful.');
    expect(opinion).toMatchObject({ skipped: 'opinion' });
    expect(opinion!.label).toBeUndefined();
    expect(repeat).toMatchObject({ skipped: 'duplicate', duplicateOf: 0, label: 'SUPPORTED', workflowId: 'w1' });
    expect(failed).toMatchObject({ failure: 'LlmOutputInvalid: no answer' });
    expect(missing!.failure).toMatch(/without a stored verdict/);
    expect(result.scores).toMatchObject({ supported: 1, notSupported: 0, skipped: 2, failed: 2, precision: 1, k: 2, recallAtK: 0.5 });
    expect(result).toMatchObject({ documentId: 'd1', sentenceCount: 3, runs: 2, finishedAt: '2026-11-26T00:00:00.000Z' });
    // The text is kept, so the explorer can render each sentence at its span.
    expect(result.text).toBe(text);
  });

  it('leaves the text out when none is given', () => {
    const result = buildDocumentVerdict({ documentId: 'd2', method: 'rag', model: 'm', checkPrompts: {}, claims: [], unreadableSentences: [], runs: 1 }, [], new Map(), new Date(0));
    expect('text' in result).toBe(false);
  });
});
