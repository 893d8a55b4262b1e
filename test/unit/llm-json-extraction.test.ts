import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LlmOutputInvalidError } from '../../src/llm/errors';
import { extractJson } from '../../src/llm/json-extraction';
import { jsonSchemaOf, parseStructuredOutput } from '../../src/llm/structured-output';

describe('extractJson', () => {
  it('parses plain JSON', () => {
    expect(extractJson(' {"a": 1} ')).toEqual({ a: 1 });
  });

  it('takes a fenced json block out of prose', () => {
    expect(extractJson('Sure!\n```json\n{"label": "SUPPORTED"}\n```\nDone.')).toEqual({ label: 'SUPPORTED' });
  });

  it('takes the first balanced object, ignoring braces inside strings', () => {
    expect(extractJson('Answer: {"a": "x } y", "b": {"c": 2}} and {"d": 3}')).toEqual({ a: 'x } y', b: { c: 2 } });
  });

  it('returns undefined when there is no JSON', () => {
    expect(extractJson('I think it is true.')).toBeUndefined();
    expect(extractJson('{"label": "SUPP')).toBeUndefined();
  });
});

describe('parseStructuredOutput', () => {
  const schema = z.object({ label: z.enum(['SUPPORTED', 'REFUTED']) });

  it('validates extracted JSON with zod', () => {
    expect(parseStructuredOutput('```json\n{"label":"REFUTED"}\n```', schema, 'm')).toEqual({ label: 'REFUTED' });
  });

  it('throws LlmOutputInvalidError for unparseable or schema-invalid output', () => {
    expect(() => parseStructuredOutput('no json', schema, 'm')).toThrow(LlmOutputInvalidError);
    expect(() => parseStructuredOutput('{"label":"MAYBE"}', schema, 'm')).toThrow(/does not match the schema: label/);
    expect(() => parseStructuredOutput(null, schema, 'm')).toThrow(LlmOutputInvalidError);
  });

  it('sends JSON schemas without $schema', () => {
    expect(jsonSchemaOf(schema)).not.toHaveProperty('$schema');
    expect(jsonSchemaOf(schema)).toMatchObject({ type: 'object', required: ['label'] });
  });
});
