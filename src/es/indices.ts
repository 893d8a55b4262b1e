/** Logical indices of verity; the physical name is `<prefix>-<logical>`. */
export const LOGICAL_INDICES = ['wiki', 'web', 'scifact', 'verdicts', 'llm-cache', 'evidence-memory', 'runs', 'run-claims', 'run-failures', 'documents', 'reviews', 'llm-pacing'] as const;
export type LogicalIndex = (typeof LOGICAL_INDICES)[number];

export function indexName(prefix: string, logical: LogicalIndex | string): string {
  return `${prefix}-${logical}`.toLowerCase();
}

/**
 * Why `name` may not be read or written as one of this deployment's indices, or undefined: one
 * concrete index (no `_all`, wildcard or list) named `<prefix>-…`, so a command never reaches
 * another deployment's data.
 */
export function ownIndexProblem(name: string, prefix: string): string | undefined {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) return `index "${name}" is not one index name (lower-case letters, digits, ".", "_" and "-"; no _all, wildcard or list)`;
  if (!name.startsWith(`${prefix.toLowerCase()}-`)) return `index "${name}" is outside this deployment (ES_INDEX_PREFIX ${prefix}: its indices are named ${prefix}-…)`;
  return undefined;
}
