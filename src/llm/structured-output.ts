import { z } from 'zod';
import { LlmOutputInvalidError } from './errors';
import { extractJson } from './json-extraction';

/** Characters of an unparsable answer kept (MERMAID's released code keeps raw[:1000] as the Thought). */
export const RAW_EXCERPT_CHARS = 1000;

/** The JSON schema sent as `response_format` (without `$schema`, which some servers reject). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema) as Record<string, unknown>;
  return jsonSchema;
}

/** Parses a model's answer (tolerating prose around the JSON) and validates it; throws LlmOutputInvalidError. */
export function parseStructuredOutput<T>(content: string | null | undefined, schema: z.ZodType<T>, model: string): T {
  const text = content ?? '';
  const excerpt = text.slice(0, RAW_EXCERPT_CHARS);
  const json = extractJson(text);
  if (json === undefined) throw new LlmOutputInvalidError(`${model} answered without parseable JSON`, model, excerpt);
  const result = schema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new LlmOutputInvalidError(`${model} answered JSON that does not match the schema: ${issues}`, model, excerpt);
  }
  return result.data;
}
