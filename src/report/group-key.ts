import type { GroupKey } from './report-types';

const SEPARATOR = '\u0000';

export function groupKeyId(key: GroupKey): string {
  return [key.dataset, key.method, key.model, ...(key.stratum ? [key.stratum.field, key.stratum.value] : [])].join(SEPARATOR);
}

/** `hover` or, for a stratum group, `hover [num_hops=2]`. */
export function datasetLabel(key: GroupKey): string {
  return key.stratum ? `${key.dataset} [${key.stratum.field}=${key.stratum.value}]` : key.dataset;
}

export function groupLabel(key: GroupKey): string {
  return `${datasetLabel(key)} · ${key.method} · ${key.model}`;
}

/** One verification's key: its dataset × method × model, claim and repeat (never its stratum, which follows from the claim). */
export function claimKeyId(row: GroupKey & { claimId: string; repeat?: number }): string {
  return [row.dataset, row.method, row.model, row.claimId, ...(row.repeat ? [String(row.repeat)] : [])].join(SEPARATOR);
}

/** Dataset, method, model; a dataset's group before its strata, strata by value (numbers as numbers). */
export function compareGroupKeys(a: GroupKey, b: GroupKey): number {
  return (
    a.dataset.localeCompare(b.dataset) ||
    a.method.localeCompare(b.method) ||
    a.model.localeCompare(b.model) ||
    Number(a.stratum !== undefined) - Number(b.stratum !== undefined) ||
    (a.stratum?.field ?? '').localeCompare(b.stratum?.field ?? '') ||
    (a.stratum?.value ?? '').localeCompare(b.stratum?.value ?? '', undefined, { numeric: true })
  );
}

/**
 * Items grouped by dataset × method × model, in a stable order; items of a stratified dataset are
 * also grouped by their stratum (a group after their dataset's).
 */
export function groupBy<T extends GroupKey>(items: readonly T[]): { key: GroupKey; items: T[] }[] {
  const groups = new Map<string, { key: GroupKey; items: T[] }>();
  const add = (key: GroupKey, item: T) => {
    const id = groupKeyId(key);
    const group = groups.get(id) ?? { key, items: [] };
    group.items.push(item);
    groups.set(id, group);
  };
  for (const item of items) {
    const key = { dataset: item.dataset, method: item.method, model: item.model };
    add(key, item);
    if (item.stratum) add({ ...key, stratum: { ...item.stratum } }, item);
  }
  return [...groups.values()].sort((a, b) => compareGroupKeys(a.key, b.key));
}
