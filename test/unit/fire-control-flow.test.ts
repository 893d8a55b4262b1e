import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { ToolCallResult } from '../../activities/tools.activities';
import { FAILURE_TYPES } from '../../src/shared/constants';
import type { FireSettings } from '../../src/methods/fire/sandbox/fire-settings';
import { lexicalSimilarity } from '../../src/methods/fire/sandbox/fire-similarity';
import { fireStepOutput } from '../../src/methods/fire/tasks';
import { liftFireStep, readFireAnswer, readFireStep } from '../../src/methods/fire/sandbox/fire-step';
import type { VerifyClaimInput } from '../../src/shared/verify';
import { runFire } from '../../src/methods/fire/sandbox/fire.workflow';
import { scriptedMethodRun } from '../support/scripted-run';

type Answer = { final_answer?: string | null; search_query?: string | null; confidence?: number | null } | 'invalid';

interface FireTrace {
  steps: { decision: string; attempts: number; similarity?: number }[];
  searches: string[];
  stop: string;
  forcedFinalAttempts?: number;
  final: boolean | null;
}

/** FIRE with scripted answers (in call order) and a search engine that returns `resultFor(query)`. */
async function runScripted(answers: Answer[], settings: Partial<FireSettings> = {}, resultFor = (q: string) => `result about ${q}`) {
  const input: VerifyClaimInput = { schemaVersion: 1, runId: 'unit', claimId: 'c', claim: 'A claim.', method: 'fire', model: 'm', rag: { topK: 1, index: 'i' }, settings: { fire: { similarity: 'lexical', ...settings } } };
  const answer = () => {
    const next = answers.shift() ?? {};
    if (next === 'invalid') {
      throw new ActivityFailure('llmTask failed', 'llmTask', '1', RetryState.NON_RETRYABLE_FAILURE, 'w', ApplicationFailure.nonRetryable('bad JSON', FAILURE_TYPES.llmOutputInvalid));
    }
    return { reasoning: 'r', final_answer: null, confidence: null, search_query: null, ...next };
  };
  const { run, tasks } = scriptedMethodRun(input, answer, async (name, args) =>
    ({ tool: name, observation: '', truncated: false, isError: false, data: { results: [{ title: '', url: 'u', snippet: resultFor(String(args.query)), position: 1, source: 's' }] } }) as ToolCallResult,
  );
  const outcome = await runFire(run);
  return { outcome, trace: outcome.trace as unknown as FireTrace, tasks };
}

describe('FIRE step reading', () => {
  it('an exact True/False answer wins; otherwise a non-empty query; otherwise unreadable', () => {
    expect(readFireStep({ final_answer: ' "False" ', confidence: 0.8, search_query: 'q' })).toEqual({ kind: 'answer', answer: false, confidence: 0.8 });
    expect(readFireStep({ final_answer: 'Probably', confidence: null, search_query: ' q ' })).toEqual({ kind: 'search', query: 'q' });
    expect(readFireStep({ final_answer: null, confidence: null, search_query: '  ' })).toEqual({ kind: 'unparseable' });
    expect(readFireAnswer('TRUE')).toBe(true);
    expect(readFireAnswer('True, most likely')).toBeUndefined();
  });

  it('reads the step schema\'s shape (version 3) as it reads FIRE\'s flat one', () => {
    expect(readFireStep({ reasoning: 'r', next: { final_answer: 'True', confidence: 0.7 } })).toEqual({ kind: 'answer', answer: true, confidence: 0.7 });
    expect(readFireStep({ reasoning: 'r', next: { search_query: ' q ' } })).toEqual({ kind: 'search', query: 'q' });
    expect(readFireStep({ reasoning: 'r', next: { search_query: '' } })).toEqual({ kind: 'unparseable' });
  });

  it('the step schema allows exactly one of an answer or a search: a flat reply is lifted, neither is rejected', () => {
    expect(fireStepOutput.parse({ reasoning: 'r', final_answer: 'false', confidence: 0.9, search_query: 'q' })).toEqual({ reasoning: 'r', next: { final_answer: 'False', confidence: 0.9 } });
    expect(fireStepOutput.parse({ final_answer: null, confidence: null, search_query: 'who won' })).toEqual({ reasoning: '', next: { search_query: 'who won' } });
    expect(fireStepOutput.safeParse({ reasoning: 'r', final_answer: null, confidence: 0, search_query: null }).success).toBe(false);
    expect(fireStepOutput.safeParse({ reasoning: 'r', next: { final_answer: 'Probably', confidence: null } }).success).toBe(false);
    expect(liftFireStep('not an object')).toBe('not an object');
  });

  it('lexical similarity is the cosine of word counts', () => {
    expect(lexicalSimilarity('Jack Dorsey CEO', 'ceo jack dorsey')).toBeCloseTo(1);
    expect(lexicalSimilarity('a b', 'c d')).toBe(0);
    expect(lexicalSimilarity('', 'x')).toBe(0);
  });
});

describe('FIRE control flow (scripted answers)', () => {
  it('answers at once without searching', async () => {
    const { outcome, trace, tasks } = await runScripted([{ final_answer: 'False', confidence: 0.9 }]);
    expect(outcome).toMatchObject({ label: 'REFUTED', methodLabel: 'false', evidence: [] });
    expect(trace).toMatchObject({ stop: 'answered', searches: [], final: false });
    expect(tasks).toEqual(['fire.step']);
  });

  it('searches at most maxSteps times, then forces a final answer', async () => {
    const queries = ['alpha one', 'bravo two', 'charlie three', 'delta four', 'echo five'].map((q) => ({ search_query: q }));
    const { trace, tasks, outcome } = await runScripted([...queries, { final_answer: 'True' }]);
    expect(trace.searches).toHaveLength(5);
    expect(trace).toMatchObject({ stop: 'max-steps', forcedFinalAttempts: 1, final: true });
    expect(tasks).toEqual([...Array(5).fill('fire.step'), 'fire.finalAnswer']);
    expect(outcome.evidence.map((e) => e.title)).toEqual(['alpha one', 'bravo two', 'charlie three', 'delta four', 'echo five']);
  });

  it('stops early when the proposed query repeats the previous one', async () => {
    const { trace } = await runScripted([{ search_query: 'Jack Dorsey CEO' }, { search_query: 'CEO Jack Dorsey' }, { final_answer: 'True' }]);
    expect(trace.searches).toEqual(['Jack Dorsey CEO']);
    expect(trace.stop).toBe('similar-query');
    expect(trace.steps[1]!.similarity).toBeGreaterThan(0.9);
  });

  it('stops early when the last two results repeat each other', async () => {
    const { trace } = await runScripted([{ search_query: 'alpha' }, { search_query: 'bravo' }, { search_query: 'charlie' }, { final_answer: 'False' }], {}, () => 'the same snippet');
    expect(trace.searches).toEqual(['alpha', 'bravo']);
    expect(trace.stop).toBe('similar-results');
  });

  it('retries unreadable steps (including schema failures) up to maxRetries + 1 tries', async () => {
    const retried = await runScripted(['invalid', { final_answer: 'maybe' }, { final_answer: 'True' }]);
    expect(retried.trace.steps[0]).toMatchObject({ decision: 'answer', attempts: 3 });
    const givenUp = await runScripted(['invalid', { final_answer: 'maybe' }, { final_answer: 'True' }], { maxRetries: 1 });
    expect(givenUp.trace).toMatchObject({ stop: 'unreadable', forcedFinalAttempts: 1, final: true });
  });

  it('a claim without a readable final answer is "failed" (NEI), as FIRE leaves it out', async () => {
    const { outcome } = await runScripted([{}, { final_answer: 'unsure' }], { maxRetries: 0 });
    expect(outcome).toMatchObject({ label: 'NEI', methodLabel: 'failed' });
  });
});
