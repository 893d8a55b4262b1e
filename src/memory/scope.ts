import { GLOBAL_MEMORY_SCOPE } from '../shared/memory';
import { scopeSafe } from '../shared/methods/mermaid';

const SCOPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/;

export class InvalidMemoryScopeError extends Error {
  override name = 'InvalidMemoryScopeError';
}

/**
 * A memory namespace per run and dataset (spec §9.10), and per model and fidelity when given
 * (MERMAID's default); the global scope when nothing is given.
 */
export function memoryScope(parts: { runId?: string; dataset?: string; model?: string; fidelity?: string } = {}): string {
  const named = [
    parts.runId && `run:${parts.runId}`,
    parts.dataset && `dataset:${parts.dataset}`,
    parts.model && `model:${scopeSafe(parts.model)}`,
    parts.fidelity && `fidelity:${parts.fidelity}`,
  ].filter(Boolean);
  return named.length === 0 ? GLOBAL_MEMORY_SCOPE : named.join('/');
}

export function assertValidScope(scope: string): string {
  if (!SCOPE_PATTERN.test(scope)) {
    throw new InvalidMemoryScopeError(`invalid memory scope "${scope}": use 1-200 letters, digits and . _ : / -`);
  }
  return scope;
}
