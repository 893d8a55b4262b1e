import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictSchemaViolations } from '../../src/llm/strict-schema';
import { jsonSchemaOf } from '../../src/llm/structured-output';

const strictObject = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

describe('strictSchemaViolations', () => {
  it('accepts a schema in OpenAI strict form: nullable fields, enums, arrays, nested anyOf of objects, $defs', () => {
    const schema = {
      ...strictObject({
        label: { type: 'string', enum: ['SUPPORTED', 'REFUTED', 'NEI'], description: 'the verdict' },
        note: { type: ['string', 'null'] },
        score: { anyOf: [{ type: 'number', minimum: 0, maximum: 1 }, { type: 'null' }] },
        ids: { type: 'array', items: { type: 'string' }, minItems: 1 },
        next: {
          anyOf: [strictObject({ action: strictObject({ name: { type: 'string', enum: ['search'] }, input: { type: 'string' } }) }), strictObject({ answer: { type: 'string' } })],
        },
        steps: { type: 'array', items: { $ref: '#/$defs/step' } },
        kind: { const: 'step' },
      }),
      $defs: { step: strictObject({ text: { type: 'string', pattern: '^x', format: 'date' } }) },
    };
    expect(strictSchemaViolations(schema)).toEqual([]);
  });

  it('rejects a root that is not an object or is anyOf', () => {
    expect(strictSchemaViolations({ type: 'array', items: { type: 'string' } })).toContain('$: the root must be of type "object"');
    expect(strictSchemaViolations({ anyOf: [strictObject({}), strictObject({ a: { type: 'string' } })] })).toContain('$: the root must not be anyOf');
    expect(strictSchemaViolations('{"type":"object"}')).toHaveLength(1);
  });

  it('names every optional property and every object without additionalProperties: false, with its path', () => {
    const schema = {
      type: 'object',
      properties: {
        thought: { type: 'string' },
        action: { type: 'object', properties: { name: { type: 'string' } }, required: [] },
      },
      required: ['action'],
      additionalProperties: false,
    };
    expect(strictSchemaViolations(schema)).toEqual([
      '$.properties.thought: every property must be required (make an optional one nullable instead)',
      '$.properties.action.additionalProperties: additionalProperties: false must be set',
      '$.properties.action.properties.name: every property must be required (make an optional one nullable instead)',
    ]);
  });

  it('rejects open records and objects without declared properties', () => {
    const record = jsonSchemaOf(z.object({ input: z.record(z.string(), z.unknown()) }));
    const violations = strictSchemaViolations(record);
    expect(violations).toContain('$.properties.input.additionalProperties: open records (additionalProperties other than false) are not supported');
    expect(violations).toContain('$.properties.input.propertyNames: keyword "propertyNames" is not supported in strict mode');
    expect(violations).toContain('$.properties.input.properties: an object must declare its properties');
    expect(strictSchemaViolations(strictObject({ any: { type: 'object', additionalProperties: true } }))).toContain(
      '$.properties.any.additionalProperties: open records (additionalProperties other than false) are not supported',
    );
  });

  it('rejects unsupported keywords: composition, conditionals, string lengths, defaults, unknown formats, tuples', () => {
    const schema = strictObject({
      a: { allOf: [{ type: 'string' }] },
      b: { type: 'string', not: { const: 'x' } },
      c: { type: 'string', if: { const: 'x' }, then: { const: 'y' }, else: { const: 'z' } },
      d: { type: 'string', minLength: 1, maxLength: 9 },
      e: { type: 'string', default: 'x' },
      f: { type: 'string', format: 'uri' },
      g: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'string' }, uniqueItems: true },
      h: { oneOf: [{ type: 'string' }, { type: 'null' }] },
      i: { type: 'object', properties: {}, required: [], additionalProperties: false, patternProperties: { '^x': { type: 'string' } } },
      j: { type: 'string', minimum: 1 },
    });
    expect(strictSchemaViolations(schema)).toEqual([
      '$.properties.a: a schema needs a type (an empty schema, e.g. z.unknown(), is not supported)',
      '$.properties.a.allOf: keyword "allOf" is not supported in strict mode',
      '$.properties.b.not: keyword "not" is not supported in strict mode',
      '$.properties.c.if: keyword "if" is not supported in strict mode',
      '$.properties.c.then: keyword "then" is not supported in strict mode',
      '$.properties.c.else: keyword "else" is not supported in strict mode',
      '$.properties.d.minLength: keyword "minLength" is not supported in strict mode',
      '$.properties.d.maxLength: keyword "maxLength" is not supported in strict mode',
      '$.properties.e.default: keyword "default" is not supported in strict mode',
      '$.properties.f.format: format "uri" is not supported',
      '$.properties.g.prefixItems: keyword "prefixItems" is not supported in strict mode',
      '$.properties.g.uniqueItems: keyword "uniqueItems" is not supported in strict mode',
      '$.properties.h: a schema needs a type (an empty schema, e.g. z.unknown(), is not supported)',
      '$.properties.h.oneOf: keyword "oneOf" is not supported in strict mode',
      '$.properties.i.patternProperties: keyword "patternProperties" is not supported in strict mode',
      '$.properties.j.minimum: keyword "minimum" is not supported in strict mode',
    ]);
  });

  it('rejects untyped schemas, arrays without items, dangling $refs and required names that are not properties', () => {
    const schema = {
      ...strictObject({ anything: {}, list: { type: 'array' }, ref: { $ref: '#/$defs/missing' }, odd: { type: 'strin' } }),
      required: ['anything', 'list', 'ref', 'odd', 'ghost'],
    };
    expect(strictSchemaViolations(schema)).toEqual([
      '$.properties.anything: a schema needs a type (an empty schema, e.g. z.unknown(), is not supported)',
      '$.properties.list.items: an array must declare the schema of its items',
      '$.properties.ref.$ref: $ref "#/$defs/missing" must point at "#" or a root $defs entry',
      '$.properties.odd.type: unknown type "strin"',
      '$.required: required names "ghost", which is not a property',
    ]);
  });

  it('enforces the size limits: nesting depth, enum values, total properties', () => {
    let nested: Record<string, unknown> = strictObject({ leaf: { type: 'string' } });
    for (let level = 0; level < 5; level += 1) nested = strictObject({ inner: nested });
    expect(strictSchemaViolations(nested)).toEqual(['$.properties.inner.properties.inner.properties.inner.properties.inner.properties.inner: objects nest more than 5 levels deep']);

    const manyEnums = strictObject({ pick: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } });
    expect(strictSchemaViolations(manyEnums)).toEqual(['$: 1001 enum values (at most 1000)']);

    const wide = strictObject(Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: 'boolean' }])));
    expect(strictSchemaViolations(wide)).toEqual(['$: 5001 object properties (at most 5000)']);
  });

  it('reads zod 4 output: optional fails, nullable passes', () => {
    expect(strictSchemaViolations(jsonSchemaOf(z.object({ a: z.string().optional() })))).toEqual([
      '$.properties.a: every property must be required (make an optional one nullable instead)',
    ]);
    expect(strictSchemaViolations(jsonSchemaOf(z.object({ a: z.string().nullable(), b: z.enum(['x', 'y']) })))).toEqual([]);
  });
});
