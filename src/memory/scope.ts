import { GLOBAL_MEMORY_SCOPE } from '../shared/memory';

const SCOPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/;

export class InvalidMemoryScopeError extends Error {
  override name = 'InvalidMemoryScopeError';
}

/** A memory namespace per run and dataset (spec §9.10); the global scope when neither is given. */
export function memoryScope(parts: { runId?: string; dataset?: string } = {}): string {
  const named = [parts.runId && `run:${parts.runId}`, parts.dataset && `dataset:${parts.dataset}`].filter(Boolean);
  return named.length === 0 ? GLOBAL_MEMORY_SCOPE : named.join('/');
}

export function assertValidScope(scope: string): string {
  if (!SCOPE_PATTERN.test(scope)) {
    throw new InvalidMemoryScopeError(`invalid memory scope "${scope}": use 1-200 letters, digits and . _ : / -`);
  }
  return scope;
}
