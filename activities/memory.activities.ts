import { ApplicationFailure } from '@temporalio/common';
import { toTemporalFailure } from '../src/llm/errors';
import { type EvidenceMemory, type MemoryRecall, type MemoryUpdateResult, SemanticRecallUnavailableError } from '../src/memory/evidence-memory';
import type { MemoryUpdateRequest } from '../src/memory/plan-update';
import { assertValidScope, InvalidMemoryScopeError } from '../src/memory/scope';
import { FAILURE_TYPES } from '../src/shared/constants';
import type { MemoryRecallOptions, MemoryUpdateOptions } from '../src/shared/memory';
import { toEsFailure } from './support/es-failure';

export interface MemoryRecallInput {
  scope: string;
  /** The claim's subjects and objects, as decomposed. */
  entities: string[];
  /** Overrides of the configured defaults (VERITY_MEMORY_*). */
  options?: Partial<MemoryRecallOptions>;
}

export interface MemoryUpdateInput extends MemoryUpdateRequest {
  options?: Partial<MemoryUpdateOptions>;
}

export interface MemoryActivityDependencies {
  memory: EvidenceMemory;
  memoryDefaults: { recall: MemoryRecallOptions; update: MemoryUpdateOptions };
}

export function createMemoryActivities(deps: MemoryActivityDependencies) {
  return {
    /** Recalled entries and their `[Memory] …` history lines (presets: RETRIEVAL). */
    async memoryRecall(input: MemoryRecallInput): Promise<MemoryRecall> {
      return withMemoryFailures(() =>
        deps.memory.recall(assertValidScope(input.scope), input.entities, { ...deps.memoryDefaults.recall, ...input.options }),
      );
    },

    /** Stores a claim's valid observations; idempotent, so a retried write changes nothing (presets: WRITE). */
    async memoryUpdate(input: MemoryUpdateInput): Promise<MemoryUpdateResult> {
      const { options, ...request } = input;
      return withMemoryFailures(() =>
        deps.memory.update({ ...request, scope: assertValidScope(request.scope) }, { ...deps.memoryDefaults.update, ...options }),
      );
    },
  };
}

async function withMemoryFailures<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (err instanceof InvalidMemoryScopeError) throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.invalidInput);
    if (err instanceof SemanticRecallUnavailableError) throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.configuration);
    const esFailure = toEsFailure(err);
    throw esFailure instanceof ApplicationFailure ? esFailure : toTemporalFailure(err); // embedding-call failures
  }
}
