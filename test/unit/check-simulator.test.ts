import { describe, expect, it } from 'vitest';
import { checkDecontextualiseTask, checkExtractTask, checkWorthinessTask, extractOutput, decontextualiseOutput, worthinessOutput } from '../../src/check/tasks';
import { responderFor } from '../../src/simulator/method-responders';
import { readPrompt } from '../../src/simulator/prompt-reader';

function answer(task: typeof checkExtractTask | typeof checkDecontextualiseTask | typeof checkWorthinessTask, variables: Record<string, string>): unknown {
  const messages = task.render(variables as never);
  const responder = responderFor(task.schemaName);
  expect(responder, `a responder for ${task.schemaName}`).toBeDefined();
  return responder!(readPrompt(messages), undefined, messages);
}

const CONTEXT = 'The Eiffel Tower is a wrought-iron tower in Paris. It was completed in 1889; it is 330 metres tall.';

describe('simulator responders of the check tasks', () => {
  it('extracts the parts of a sentence between semicolons as claims', () => {
    const output = extractOutput.parse(answer(checkExtractTask, { sentence: 'It was completed in 1889; it is 330 metres tall.', context: CONTEXT }));
    expect(output.claims).toEqual(['It was completed in 1889.', 'it is 330 metres tall.']);
  });

  it('resolves a leading pronoun from the context', () => {
    const output = decontextualiseOutput.parse(answer(checkDecontextualiseTask, { claim: 'It was completed in 1889.', context: CONTEXT }));
    expect(output.claim).toBe('The Eiffel Tower was completed in 1889.');
    expect(decontextualiseOutput.parse(answer(checkDecontextualiseTask, { claim: 'Paris is in France.', context: CONTEXT })).claim).toBe('Paris is in France.');
  });

  it('judges opinions, questions and tautologies not check-worthy, with the reason', () => {
    const judge = (claim: string) => worthinessOutput.parse(answer(checkWorthinessTask, { claim, context: CONTEXT }));
    expect(judge('I think the tower is the most beautiful building in Paris.')).toEqual({ check_worthy: false, reason: 'opinion' });
    expect(judge('How tall is the tower?')).toEqual({ check_worthy: false, reason: 'question' });
    expect(judge('A tower is a tower.')).toEqual({ check_worthy: false, reason: 'tautology' });
    expect(judge('The Eiffel Tower was completed in 1889.')).toEqual({ check_worthy: true, reason: 'check-worthy' });
  });

  it('answers the same prompt the same way', () => {
    const variables = { sentence: 'It was completed in 1889; it is 330 metres tall.', context: CONTEXT };
    expect(answer(checkExtractTask, variables)).toEqual(answer(checkExtractTask, variables));
  });
});
