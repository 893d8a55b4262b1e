import type { MermaidToolEntry } from './sandbox/mermaid-protocol';
import type { ToolName } from '../../shared/tools';
import type { ToolSpec } from '../../tools/registry';

/**
 * The executor's tools: the requested ones the worker has registered, in the requested order,
 * each with the argument a plain-string `input` goes to (its first required string argument).
 */
export function toolCatalog(specs: readonly ToolSpec[], requested: readonly ToolName[]): MermaidToolEntry[] {
  return [...new Set(requested)].flatMap((name) => {
    const spec = specs.find((candidate) => candidate.name === name);
    return spec ? [{ name, description: spec.description, parameters: spec.inputSchema, primaryArgument: primaryArgumentOf(spec.inputSchema) }] : [];
  });
}

export function primaryArgumentOf(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const isString = (name: string) => properties[name]?.type === 'string';
  return required.find(isString) ?? Object.keys(properties).find(isString) ?? 'query';
}
