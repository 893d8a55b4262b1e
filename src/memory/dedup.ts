import { canonicalJson, sha256Hex } from '../llm/canonical-json';
import type { MemoryDedupKey, MemoryObservation } from '../shared/memory';

/** Strings trimmed, whitespace collapsed and lower-cased at every depth; key order is settled by canonicalJson. */
export function normalizeArgs(value: unknown): unknown {
  if (typeof value === 'string') return value.trim().replace(/\s+/g, ' ').toLowerCase();
  if (Array.isArray(value)) return value.map(normalizeArgs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normalizeArgs(inner)]));
}

/** The text shown for an observation: its query, else args.query, else the first string argument. */
export function queryOf(observation: Pick<MemoryObservation, 'args' | 'query'>): string {
  if (observation.query !== undefined) return observation.query;
  const { args } = observation;
  if (typeof args.query === 'string') return args.query;
  const firstString = Object.values(args).find((value): value is string => typeof value === 'string');
  return firstString ?? canonicalJson(args);
}

export function dedupKeyOf(observation: MemoryObservation, dedup: MemoryDedupKey): string {
  if (dedup === 'query') return `query:${queryOf(observation).toLowerCase()}`;
  return `tool:${observation.tool.trim().toLowerCase()}:${canonicalJson(normalizeArgs(observation.args))}`;
}

/** Deterministic document id: the same observation in the same scope is always the same document. */
export function entryId(scope: string, dedupKey: string): string {
  return sha256Hex(`${scope}\n${dedupKey}`).slice(0, 32);
}
