import { checkResponders } from './methods/check';
import { emulateResponders } from './methods/emulate';
import { fireResponders } from './methods/fire';
import { mermaidResponders } from './methods/mermaid';
import { toeResponders } from './methods/toe';
import { toolMadResponders } from './methods/tool-mad';
import type { PromptReading } from './prompt-reader';

/**
 * A method-specific simulator answer for one structured task: returns the JSON value to send
 * (it must match `schema`), or undefined to fall back to the generic schema generator.
 */
export type SchemaResponder = (reading: PromptReading, schema: unknown, messages: readonly { role: string; content?: unknown }[]) => unknown;

const RESPONDERS: Record<string, SchemaResponder> = {
  ...mermaidResponders,
  ...emulateResponders,
  ...fireResponders,
  ...toolMadResponders,
  ...toeResponders,
  ...checkResponders,
};

export function responderFor(schemaName: string | undefined): SchemaResponder | undefined {
  return schemaName ? RESPONDERS[schemaName] : undefined;
}
