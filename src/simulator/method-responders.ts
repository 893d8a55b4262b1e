import { METHOD_NAMES, methodDefinition } from '../methods/registry';
import { checkResponders } from './methods/check';
import type { PromptReading } from './prompt-reader';

/**
 * A method-specific simulator answer for one structured task: returns the JSON value to send
 * (it must match `schema`), or undefined to fall back to the generic schema generator.
 * `constrained`: the server decodes under the request's json_schema, so the answer cannot leave its
 * enums (absent: as if it did); otherwise the schema is only read in the prompt and a model may answer in its own words.
 */
export type SchemaResponder = (reading: PromptReading, schema: unknown, messages: readonly { role: string; content?: unknown }[], constrained?: boolean) => unknown;

let responders: Record<string, SchemaResponder> | undefined;

/** Every registered method's responders and verity check's, by schema name (built on first use: the registry imports this file's type). */
function allResponders(): Record<string, SchemaResponder> {
  responders ??= Object.assign({}, ...METHOD_NAMES.map((name) => methodDefinition(name).responders), checkResponders) as Record<string, SchemaResponder>;
  return responders;
}

export function responderFor(schemaName: string | undefined): SchemaResponder | undefined {
  return schemaName ? allResponders()[schemaName] : undefined;
}
