import { z } from 'zod';
import { modelNameSchema } from '../llm/model-name';
import { VERDICT_LABELS } from '../shared/constants';

/**
 * What a run is and how it was made: written when a sweep starts (and updated with its status),
 * read by `verity report` and `verity diff`. Stored in `<prefix>-runs` with `_id` = runId.
 */
export const runDatasetSchema = z.strictObject({
  /** Dataset name as used for label mapping (fever, hover, factcheck_bench, …). */
  name: z.string().min(1),
  file: z.string().min(1),
  format: z.string().default('auto'),
  /** sha256 of the dataset file as read. */
  sha256: z.string().optional(),
  /** Claims sampled from the file (all when absent). */
  sample: z.number().int().positive().optional(),
  claimCount: z.number().int().nonnegative().optional(),
  /** Retrieval index for this dataset's claims (default: parameters.rag.index, else <prefix>-wiki). */
  index: z.string().min(1).optional(),
  /** Gold labels (internal: SUPPORTED, REFUTED, NEI) whose claims are left out before sampling, e.g. SciFact's NEI for MERMAID. */
  dropLabels: z.array(z.enum(VERDICT_LABELS)).min(1).optional(),
  /**
   * `perValue` claims for every value of the claims' `meta.<field>` (label-stratified within each, seeded),
   * reported per value next to the dataset, e.g. HoVer's 100 per hop (`field: num_hops`). Instead of `sample`.
   */
  stratify: z.strictObject({ field: z.string().regex(/^[A-Za-z0-9_]+$/, 'a meta field name (letters, digits, "_")'), perValue: z.number().int().positive() }).optional(),
});

export const RUN_PROTOCOLS = ['verity', 'paper'] as const;
export type RunProtocol = (typeof RUN_PROTOCOLS)[number];

/** Run ids and model names are spelled out in workflow ids, document ids and search attributes: short ones only. */
export const MAX_RUN_ID_CHARS = 100;
export const MAX_MODEL_NAME_CHARS = 200;

/** A run id, as sweeps and `verify --run` accept it. */
export const runIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'run ids use letters, digits, ".", "_" and "-"')
  .max(MAX_RUN_ID_CHARS, `run ids have at most ${MAX_RUN_ID_CHARS} characters`);

export const runConfigSchema = z.strictObject({
  run: runIdSchema,
  description: z.string().optional(),
  datasets: z
    .array(runDatasetSchema)
    .min(1)
    .superRefine((datasets, context) => {
      datasets.forEach((dataset, i) => {
        if (dataset.stratify && dataset.sample !== undefined) context.addIssue({ code: 'custom', path: [i, 'stratify'], message: 'give either sample (claims in all) or stratify (claims per value), not both' });
      });
    }),
  methods: z.array(z.string().min(1)).min(1),
  models: z.array(modelNameSchema.pipe(z.string().max(MAX_MODEL_NAME_CHARS, `model names have at most ${MAX_MODEL_NAME_CHARS} characters`))).min(1),
  /** Method parameters (e.g. rag: { topK, index }), passed to every verification. */
  parameters: z.record(z.string(), z.unknown()).default({}),
  seed: z.number().int().default(7),
  concurrency: z.number().int().positive().max(500).default(8),
  /** Verify claims one after another, in dataset order (methods whose memory depends on order). */
  ordered: z.boolean().default(false),
  /**
   * Verify every (claim, method, model) this many times (default 1), each repeat its own verification
   * with its own LLM samples; the report adds mean, sd and a 95% interval across repeats, majority vote and pass^k.
   */
  repeats: z.number().int().positive().max(100).optional(),
  budget: z.strictObject({ usd: z.number().positive().optional(), tokens: z.number().int().positive().optional() }).default({}),
  /** Per-verification limits: one reached ends the verification with its reason (its spend is kept). */
  limits: z
    .object({ tokens: z.number().int().positive().optional(), usd: z.number().positive().optional(), seconds: z.number().positive().optional() })
    .strict()
    .optional(),
  /**
   * Pause the sweep past `maxFailureRate` once `minVerifications` have finished, showing the top failure reasons.
   * `failStuckAfterSeconds`: a verification whose workflow task keeps failing this long is ended and recorded
   * as failed with the cause (default 1800; 0 never).
   */
  policies: z
    .object({
      maxFailureRate: z.number().min(0).max(1).optional(),
      minVerifications: z.number().int().positive().default(20),
      failStuckAfterSeconds: z.number().int().min(0).max(7 * 24 * 3600).optional(),
    })
    .strict()
    .optional(),
  /** Malformed dataset lines (reported before the run starts either way) make the run fail instead of being skipped. */
  strict: z.boolean().optional(),
  /**
   * How the report scores (absent: `verity`). `paper`: macro/weighted F1 as the papers computed them
   * (rounded class F1s, src/metrics/paper-report.ts) and FIRE's unanswered claims left out as FIRE's
   * code does; `verity`: unrounded metrics, every claim scored. Recorded with the config in the manifest.
   */
  protocol: z.enum(RUN_PROTOCOLS).optional(),
  /**
   * Every dataset item is a whole text (an article, an LLM answer): it is checked as `verity check`
   * does (claims extracted, decontextualised, judged check-worthy, each verified) and scored as a
   * document. `f1K`: K of F1@K; `window`: sentences and verifications in flight per document.
   */
  check: z.strictObject({ f1K: z.number().int().positive().max(100_000).optional(), window: z.number().int().positive().max(64).optional() }).optional(),
  /**
   * The models whose LLM calls go through the provider's batch API (about half the price, answers
   * within its 24-hour window): calls are collected up to `maxRequests` or for `maxWaitSeconds`,
   * submitted as one batch and polled every `pollSeconds`. `batch: true`, or a block without
   * `models`, batches every model of the run (`batch: false`: none). Not part of any identity: the answers are the same.
   */
  batch: z
    .preprocess((value) => (value === true ? {} : value === false ? undefined : value), z.strictObject({
      models: z.array(z.string().min(1)).min(1).optional(),
      maxRequests: z.number().int().positive().max(50_000).optional(),
      maxWaitSeconds: z.number().positive().max(86_400).optional(),
      pollSeconds: z.number().positive().max(3_600).optional(),
      maxSubmissions: z.number().int().positive().max(10).optional(),
    }).optional())
    .optional(),
});

export type RunConfig = z.infer<typeof runConfigSchema>;

export const RUN_STATUSES = ['running', 'paused', 'budget-exhausted', 'completed', 'cancelled', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A setting the sweep resolved for its protocol when it started (Tool-MAD's answer-relevance gate), with where the value came from. */
export const runCalibrationSchema = z.object({
  method: z.string(),
  setting: z.string(),
  value: z.number(),
  embeddingModel: z.string(),
  /** `table`: the calibrated per-model table; `configured`: the sweep config set it. */
  from: z.enum(['table', 'configured']),
  source: z.string(),
});
export type RunCalibration = z.infer<typeof runCalibrationSchema>;

export const runManifestSchema = z.object({
  schemaVersion: z.literal(1),
  runId: z.string(),
  config: runConfigSchema,
  status: z.enum(RUN_STATUSES),
  /** git commit of the code that ran (`unknown` outside a checkout). */
  gitCommit: z.string(),
  datasetHashes: z.record(z.string(), z.string()),
  /** Model ids per agent role as configured in the worker, plus the run's model list. */
  modelIds: z.array(z.string()),
  /** Prompt versions used (task id@version), filled in as verdicts arrive. */
  promptVersions: z.array(z.string()).default([]),
  llmProvider: z.enum(['openai-compatible', 'simulator', 'local']),
  calibrations: z.array(runCalibrationSchema).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type RunManifest = z.infer<typeof runManifestSchema>;
