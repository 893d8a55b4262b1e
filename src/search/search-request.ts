import { InvalidArgumentsError } from './errors';
import { type SearchOptions } from './types';

export const MAX_SEARCH_LIMIT = 100;

/** Validates the caller's query and limit once, before any provider-specific work. */
export function validateSearchRequest(provider: string, query: string, options: SearchOptions): { query: string; limit: number } {
  const trimmed = query.trim();
  if (trimmed === '') throw new InvalidArgumentsError(provider, 'query must not be empty');
  const { limit } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new InvalidArgumentsError(provider, `limit must be an integer between 1 and ${MAX_SEARCH_LIMIT}, got ${String(limit)}`);
  }
  return { query: trimmed, limit };
}

/** Gives results 1-based positions in their current order, keeping at most `limit`. */
export function rankResults<R extends { position: number }>(results: readonly Omit<R, 'position'>[], limit: number = Infinity): R[] {
  return results.slice(0, limit).map((result, index) => ({ ...result, position: index + 1 }) as R);
}
