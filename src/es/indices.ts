/** Logical indices of verity; the physical name is `<prefix>-<logical>`. */
export const LOGICAL_INDICES = ['wiki', 'web', 'scifact', 'verdicts', 'llm-cache', 'evidence-memory', 'runs', 'run-claims', 'run-failures'] as const;
export type LogicalIndex = (typeof LOGICAL_INDICES)[number];

export function indexName(prefix: string, logical: LogicalIndex | string): string {
  return `${prefix}-${logical}`.toLowerCase();
}
