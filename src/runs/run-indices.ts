import type { IndexDefinition } from '../es/ensure-index';

/** Mappings of `<prefix>-runs` (manifests are stored whole; these fields are searchable). */
export const RUNS_INDEX: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      runId: { type: 'keyword' },
      status: { type: 'keyword' },
      gitCommit: { type: 'keyword' },
      llmProvider: { type: 'keyword' },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
  },
};

/** Mappings of `<prefix>-run-claims`: `_id` = `<run>/<ordinal>`, paged in ordinal order by the sweep. */
export const RUN_CLAIMS_INDEX: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      runId: { type: 'keyword' },
      ordinal: { type: 'integer' },
      claimId: { type: 'keyword' },
      dataset: { type: 'keyword' },
      datasetPosition: { type: 'integer' },
      labelNorm: { type: 'keyword' },
      claim: { type: 'text', index: false },
    },
  },
};

/** Mappings of `<prefix>-run-failures`: `_id` = the failed verification's workflow id. */
export const RUN_FAILURES_INDEX: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      runId: { type: 'keyword' },
      workflowId: { type: 'keyword' },
      ordinal: { type: 'integer' },
      claimId: { type: 'keyword' },
      dataset: { type: 'keyword' },
      method: { type: 'keyword' },
      model: { type: 'keyword' },
      reason: { type: 'text' },
      type: { type: 'keyword' },
      failedAt: { type: 'date' },
    },
  },
};
