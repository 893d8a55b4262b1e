import { z } from 'zod';
import { GLOBAL_MEMORY_SCOPE } from '../shared/memory';
import { scopeSafe } from '../methods/mermaid/sandbox/mermaid-settings';

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

const SCOPE_RULE = 'use 1-200 letters, digits and . _ : / -';

/** A memory scope, wherever one enters: the CLI's arguments and imported entries alike. */
export const memoryScopeSchema = z.string().regex(SCOPE_PATTERN, SCOPE_RULE);

export function assertValidScope(scope: string): string {
  if (!memoryScopeSchema.safeParse(scope).success) {
    throw new InvalidMemoryScopeError(`invalid memory scope "${scope}": ${SCOPE_RULE}`);
  }
  return scope;
}
