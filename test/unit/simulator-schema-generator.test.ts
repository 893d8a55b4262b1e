import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOf } from '../../src/llm/structured-output';
import { generateFromSchema, type GenerationContext } from '../../src/simulator/schema-generator';
import { decideVerdict } from '../../src/simulator/verdict-heuristic';

function contextFor(claim: string): GenerationContext {
  const decision = decideVerdict(claim, [
    { id: 'p1', text: 'Paris is the capital of France.' },
    { id: 'p2', text: 'France is in Europe.' },
  ]);
  return { claim, decision, rationale: `because [${decision.citedIds[0]}]` };
}

describe('generateFromSchema', () => {
  const verdictSchema = z.object({
    label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']),
    evidence_ids: z.array(z.string()).min(1),
    rationale: z.string().min(5).max(200),
    confidence: z.number().min(0).max(1),
    steps: z.array(z.object({ query: z.string(), done: z.boolean() })).max(3),
    priority: z.number().int().min(3).max(9),
    kind: z.enum(['alpha', 'beta']),
    note: z.string().nullable(),
  });

  it('produces output valid for the zod schema, filled from the prompt', () => {
    const output = generateFromSchema(jsonSchemaOf(verdictSchema), contextFor('Paris is the capital of France.'));
    const parsed = verdictSchema.parse(output);
    expect(parsed.label).toBe('SUPPORTED');
    expect(parsed.evidence_ids[0]).toBe('p1');
    expect(parsed.confidence).toBe(1);
    expect(parsed.steps[0]!.query).toContain('paris');
    expect(parsed.priority).toBeGreaterThanOrEqual(3);
  });

  it('maps verdicts onto label enums of other vocabularies', () => {
    const binary = z.object({ verdict: z.enum(['true', 'false']) });
    expect(generateFromSchema(jsonSchemaOf(binary), contextFor('Paris is the capital of France.'))).toEqual({ verdict: 'true' });
    expect(generateFromSchema(jsonSchemaOf(binary), contextFor('Paris is not the capital of France.'))).toEqual({ verdict: 'false' });
    const nei = z.object({ label: z.enum(['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO']) });
    expect(generateFromSchema(jsonSchemaOf(nei), contextFor('Tokyo has many trains.'))).toEqual({ label: 'NOT ENOUGH INFO' });
  });

  it('follows $refs and is deterministic', () => {
    const node = z.object({ name: z.string() });
    const schema = z.object({ a: node, b: node });
    const json = z.toJSONSchema(schema, { reused: 'ref' });
    const first = generateFromSchema(json, contextFor('x'));
    expect(schema.parse(first)).toEqual(first);
    expect(generateFromSchema(json, contextFor('x'))).toEqual(first);
  });
});
