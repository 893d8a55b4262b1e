import type { GroupKey } from './report-types';

const SEPARATOR = '\u0000';

export function groupKeyId(key: GroupKey): string {
  return [key.dataset, key.method, key.model].join(SEPARATOR);
}

export function groupLabel(key: GroupKey): string {
  return `${key.dataset} · ${key.method} · ${key.model}`;
}

export function claimKeyId(row: GroupKey & { claimId: string }): string {
  return [groupKeyId(row), row.claimId].join(SEPARATOR);
}

export function compareGroupKeys(a: GroupKey, b: GroupKey): number {
  return a.dataset.localeCompare(b.dataset) || a.method.localeCompare(b.method) || a.model.localeCompare(b.model);
}

/** Items grouped by dataset × method × model, in a stable order. */
export function groupBy<T extends GroupKey>(items: readonly T[]): { key: GroupKey; items: T[] }[] {
  const groups = new Map<string, { key: GroupKey; items: T[] }>();
  for (const item of items) {
    const key = { dataset: item.dataset, method: item.method, model: item.model };
    const id = groupKeyId(key);
    const group = groups.get(id) ?? { key, items: [] };
    group.items.push(item);
    groups.set(id, group);
  }
  return [...groups.values()].sort((a, b) => compareGroupKeys(a.key, b.key));
}
