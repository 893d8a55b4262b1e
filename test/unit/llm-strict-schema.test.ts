import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictSchemaViolations } from '../../src/llm/strict-schema';
import { jsonSchemaOf } from '../../src/llm/structured-output';

describe("strictSchemaViolations (OpenAI's strict structured-output rules)", () => {
  it('passes an object whose properties are all required, nullable instead of optional, and closed', () => {
    const schema = z.object({ label: z.enum(['A', 'B']), note: z.string().nullable(), items: z.array(z.object({ id: z.string() })) });
    expect(strictSchemaViolations(jsonSchemaOf(schema))).toEqual([]);
  });

  it('names an optional property, where it is', () => {
    const schema = z.object({ step: z.object({ thought: z.string().optional(), action: z.string() }) });
    expect(strictSchemaViolations(jsonSchemaOf(schema))).toEqual([
      "properties.step: 'required' must include every key in properties; missing 'thought' (make it nullable instead of optional)",
    ]);
  });

  it('rejects an open record and an object without additionalProperties: false', () => {
    const record = jsonSchemaOf(z.object({ input: z.record(z.string(), z.string()) }));
    expect(strictSchemaViolations(record)).toEqual([expect.stringMatching(/^properties\.input: 'additionalProperties' must be false/)]);
    const open = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(strictSchemaViolations(open)).toEqual([expect.stringMatching(/^\(root\): 'additionalProperties' must be false/)]);
  });

  it('requires an object root and anyOf instead of oneOf', () => {
    expect(strictSchemaViolations({ type: 'array', items: { type: 'string' } })).toContain('(root): the root schema must be an object, not anyOf or another type');
    const union = jsonSchemaOf(z.object({ step: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]) }));
    expect(strictSchemaViolations(union)).toEqual(["properties.step: 'oneOf' is not permitted (use anyOf)"]);
    expect(strictSchemaViolations(jsonSchemaOf(z.object({ step: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]) })))).toEqual([]);
  });

  it('walks $defs, array items and anyOf branches', () => {
    const schema = {
      type: 'object',
      properties: { list: { type: 'array', items: { $ref: '#/$defs/item' } }, either: { anyOf: [{ type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false }, { type: 'null' }] } },
      required: ['list', 'either'],
      additionalProperties: false,
      $defs: { item: { type: 'object', properties: {}, additionalProperties: true } },
    };
    expect(strictSchemaViolations(schema)).toEqual([
      expect.stringMatching(/^properties\.either\.anyOf\[0\]: 'required' must include every key in properties; missing 'x'/),
      expect.stringMatching(/^\$defs\.item: 'additionalProperties' must be false/),
    ]);
  });
});
