import type { IndexDefinition } from '../es/ensure-index';

/** One document per (run, claim, method): `_id` is the verification's workflow id. */
export const VERDICT_INDEX: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      workflowId: { type: 'keyword' },
      runId: { type: 'keyword' },
      claimId: { type: 'keyword' },
      dataset: { type: 'keyword' },
      method: { type: 'keyword' },
      claim: { type: 'text' },
      label: { type: 'keyword' },
      methodLabel: { type: 'keyword' },
      rationale: { type: 'text' },
      citedPassageIds: { type: 'keyword' },
      model: { type: 'keyword' },
      temperature: { type: 'float' },
      seed: { type: 'integer' },
      sampling: { type: 'object', enabled: false },
      promptVersion: { type: 'keyword' },
      usage: {
        properties: {
          llmCalls: { type: 'integer' },
          cachedLlmCalls: { type: 'integer' },
          toolCalls: { type: 'integer' },
          promptTokens: { type: 'integer' },
          completionTokens: { type: 'integer' },
          totalTokens: { type: 'integer' },
          costUsd: { type: 'double' },
        },
      },
      // Stored for reading back, never searched: method traces differ in shape.
      trace: { type: 'object', enabled: false },
      transcript: { type: 'object', enabled: false },
      invalidLlmCalls: { type: 'integer' },
      startedAt: { type: 'date' },
      finishedAt: { type: 'date' },
      durationMs: { type: 'long' },
      storedAt: { type: 'date' },
    },
  },
};
