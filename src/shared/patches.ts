/**
 * Ids of the behaviour changes made after histories were recorded (`patched()` from
 * @temporalio/workflow): a recorded run replays the old branch, new runs take the new one.
 */
export const PATCHES = {
  /** Short Elasticsearch reads and writes run as local activities (es-activities.ts). */
  localShortSteps: 'local-short-steps',
  /** Tool-MAD: a negated label ("…is not supported.") names its counterpart, not itself. */
  toolMadLabelNegation: 'tool-mad-label-negation',
  /** MERMAID: an unparsable executor reply becomes `Thought: <raw reply[:1000]>`, as in the released code. */
  mermaidRawThought: 'mermaid-raw-thought',
  /** MERMAID: the evidence memory is scoped per model and fidelity unless `memorySharing: run`. */
  mermaidMemoryPerModel: 'mermaid-memory-per-model',
  /** ToE: the decomposition LLM sees the evidence that left the node unreliable. */
  toeDecomposeWithEvidence: 'toe-decompose-with-evidence',
  /** Tool-MAD: without a configured mode the RAG debater retrieves dense where the index has vectors, else BM25 with a notice. */
  toolMadDenseDefault: 'tool-mad-dense-default',
  /** ToE: policy `online` reads the acting weights version first and runs the due GRPO updates after the claim. */
  toeOnlinePolicy: 'toe-online-policy',
  /** A claim's length is counted in characters (code points), not UTF-16 units. */
  claimLengthInCharacters: 'claim-length-in-characters',
  /** An LLM call first asks the request cache (a local activity); only a miss goes to the rate-limited LLM queue. */
  llmCacheBeforeQueue: 'llm-cache-before-queue',
  /**
   * An invalid LLM answer counts: a paid one with its usage, cost, seed and prompt version (budgets
   * and limits see it), every one in `usage.invalidAnswers`; the methods handle it as their papers do.
   */
  invalidAnswersCounted: 'invalid-answers-counted',
  /** A sweep's child ids shorten long run, claim and model ids (identity.ts's escapeIdPart) instead of spelling them out. */
  shortIdParts: 'short-id-parts',
  /** A sweep that cannot record a verification's failure (or count its outcome) fails with that reason instead of failing its workflow tasks forever. */
  sweepFailsOnLostOutcome: 'sweep-fails-on-lost-outcome',
  /** ToE online policy in a sweep (default scope): the version a claim acts with follows its position in the run's claim order, waited for durably. */
  toePolicyByClaimOrder: 'toe-policy-by-claim-order',
  /** A sweep with `repeats: k` verifies every (claim, method, model) k times, repeat r ≥ 1 with `llm.repeat: r` in its settings. */
  sweepRepeats: 'sweep-repeats',
  /** A sweep with `check` checks each item as a document (a child checkDocumentWorkflow) instead of verifying it as a claim. */
  sweepChecksDocuments: 'sweep-checks-documents',
  /** A sweep with `batch` routes its batch models' LLM calls through provider batches (llmBatchTask, batchCollectorWorkflow). */
  batchLane: 'batch-lane',
  /** A sweep looks for verifications whose workflow task keeps failing and, past its bound, ends them and records why. */
  sweepFailsStuckVerifications: 'sweep-fails-stuck-verifications',
  /**
   * A request-cache lookup that fails (a local activity's failure arrives as its ApplicationFailure or
   * TimeoutFailure, not an ActivityFailure) is a miss: the call is paid for instead of failing the claim.
   */
  cacheLookupFailureIsMiss: 'cache-lookup-failure-is-miss',
  /** A sweep stops at once, with one line, when a verification fails on a configuration error (a parameter the server refuses, a bad key, an unknown model). */
  sweepStopsOnConfigurationError: 'sweep-stops-on-configuration-error',
  /** `check`: a step whose prompt cannot fit the context window (an over-long sentence) falls back as with no answer; its sentence is set aside as unreadable. */
  checkOverlongSentenceUnreadable: 'check-overlong-sentence-unreadable',
  /** Local activities honour the retry budget by attempts too (the worker's local retries ignore their schedule-to-close timeout). */
  localRetryBudgetAttempts: 'local-retry-budget-attempts',
  /** rag and llm-only answer with the rationale before the label (their `order` setting, default rationale-first); before, label first. */
  baselineRationaleFirst: 'baseline-rationale-first',
  /** MERMAID's executor prompt carries its tool-use hints (example step, one-call rule, tool names) only with `toolHints` (off by default). */
  mermaidExecutorHintsOption: 'mermaid-executor-hints-option',
  /** A sweep with a budget starts a verification only when the spend it expects (the finished ones' mean) still fits; the first runs alone. */
  sweepReservesBudget: 'sweep-reserves-budget',
  /** A cancelled verification closes only after its LLM calls in flight have finished (they are paid), so their spend can be counted. */
  cancelWaitsForPaidCalls: 'cancel-waits-for-paid-calls',
  /** A cancelled sweep waits for its cancelled verifications to close and counts what they paid (from the request cache), recording each as cancelled. */
  sweepCountsCancelledSpend: 'sweep-counts-cancelled-spend',
  /** MERMAID reads documented aliases of its labels ("SUPPORTED"/"Supports"/"True" on SciFact) instead of exact strings (issue 37 §2.2). */
  mermaidAnswerAliases: 'mermaid-answer-aliases',
  /** A local activity's retries wait on a workflow timer (not inside the workflow task), so `localRetries` answers while it retries. */
  localRetriesVisible: 'local-retries-visible',
  /** Until a verification has finished, a sweep with a budget reserves the plan's per-claim estimate for each (input.plannedPerVerification). */
  sweepReservesPlannedSpend: 'sweep-reserves-planned-spend',
  /**
   * Tool-MAD `labelSet: auto` follows the spec (§10 #11): AVeriTeC is prompted with FEVER's three labels
   * (Option A; `labelSet: averitec` is Option B's four) and FaVIQ with the three labels too (`binary` is the option).
   */
  toolMadSpecLabelSets: 'tool-mad-spec-label-sets',
  /** MERMAID with `releasedPrompts`: main.py's loop with the released prompts, read as plain text (issue 37 §1). */
  mermaidReleasedPrompts: 'mermaid-released-prompts',
} as const;

/**
 * Every patch in the order it was made; append only. Code that starts an execution records in its
 * memo how many of these it already has (PATCH_LEVEL_MEMO), and such an execution takes them
 * without `patched()`: no marker and no TemporalChangeVersion upsert per workflow, which is a
 * visibility write on the server for every claim. Executions without that memo ask `patched()`.
 */
export const PATCH_ORDER: readonly string[] = [
  PATCHES.toolMadLabelNegation,
  PATCHES.mermaidRawThought,
  PATCHES.mermaidMemoryPerModel,
  PATCHES.toeDecomposeWithEvidence,
  PATCHES.localShortSteps,
  PATCHES.toolMadDenseDefault,
  PATCHES.toeOnlinePolicy,
  PATCHES.claimLengthInCharacters,
  PATCHES.llmCacheBeforeQueue,
  PATCHES.invalidAnswersCounted,
  PATCHES.shortIdParts,
  PATCHES.sweepFailsOnLostOutcome,
  PATCHES.toePolicyByClaimOrder,
  PATCHES.sweepRepeats,
  PATCHES.sweepChecksDocuments,
  PATCHES.batchLane,
  PATCHES.sweepFailsStuckVerifications,
  PATCHES.cacheLookupFailureIsMiss,
  PATCHES.sweepStopsOnConfigurationError,
  PATCHES.checkOverlongSentenceUnreadable,
  PATCHES.localRetryBudgetAttempts,
  PATCHES.baselineRationaleFirst,
  PATCHES.mermaidExecutorHintsOption,
  PATCHES.sweepReservesBudget,
  PATCHES.cancelWaitsForPaidCalls,
  PATCHES.sweepCountsCancelledSpend,
  PATCHES.mermaidAnswerAliases,
  PATCHES.localRetriesVisible,
  PATCHES.sweepReservesPlannedSpend,
  PATCHES.toolMadSpecLabelSets,
  PATCHES.mermaidReleasedPrompts,
];

/** Memo key of the patch level an execution was started with (inherited by its children and continuations). */
export const PATCH_LEVEL_MEMO = 'verityPatchLevel';
