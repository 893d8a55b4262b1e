import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LlmInvalidInputError } from '../../src/llm/errors';
import {
  parseClaim,
  parseEvidence,
  parseJsonSchemaInstruction,
  renderClaim,
  renderEvidence,
  renderJsonSchemaInstruction,
} from '../../src/llm/prompt-conventions';
import { defineTask, getTask, registerTask } from '../../src/llm/task-registry';

describe('prompt conventions', () => {
  it('round-trips the claim and the evidence block', () => {
    const prompt = [
      'You verify claims.',
      renderClaim('Paris is the\ncapital of France.'),
      '',
      renderEvidence([
        { id: 'Paris#0', text: 'Paris is the capital and largest city of France.' },
        { id: 'p2', text: 'Lyon is a city.' },
      ]),
      'Answer now.',
    ].join('\n');
    expect(parseClaim(prompt)).toBe('Paris is the capital of France.');
    expect(parseEvidence(prompt)).toEqual([
      { id: 'Paris#0', text: 'Paris is the capital and largest city of France.' },
      { id: 'p2', text: 'Lyon is a city.' },
    ]);
  });

  it('finds a JSON schema the gateway put in the prompt', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(parseJsonSchemaInstruction(`hi\n${renderJsonSchemaInstruction(schema)}`)).toEqual(schema);
    expect(parseJsonSchemaInstruction('no schema')).toBeUndefined();
  });
});

describe('task registry', () => {
  it('registers tasks from any module and rejects unknown ids as invalid input', () => {
    const task = defineTask({
      id: 'test.echo',
      version: '1',
      role: 'judge',
      schemaName: 'echo',
      maxTokens: 100,
      variables: z.object({ claim: z.string() }),
      output: z.object({ label: z.string() }),
      render: ({ claim }) => [{ role: 'user', content: renderClaim(claim) }],
    });
    registerTask(task);
    expect(getTask('test.echo')).toBe(task);
    expect(() => getTask('test.nope')).toThrow(LlmInvalidInputError);
  });
});
