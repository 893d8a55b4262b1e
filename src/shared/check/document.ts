/**
 * Sandbox-safe types and defaults of checking a whole text (issue 30): the document workflow's
 * input, its carried state, the records of its claims and the verdict it stores.
 */
import type { VerdictLabel } from '../constants';
import type { ConfigStamp, IdentityContext } from '../identity';
import type { MethodSettings } from '../method-settings';
import type { MethodName } from '../constants';
import type { RagSettings } from '../verify';

/** SAFE's K for F1@K (the median number of facts in its LongFact responses). */
export const DEFAULT_F1_K = 64;
/** Concurrent LLM steps (sentences) and child verifications of one document. */
export const DEFAULT_CHECK_WINDOW = 4;
/** Claims one workflow run extracts or verifies before it continues as new (keeps the history small). */
export const DEFAULT_CLAIMS_PER_RUN = 200;
/** Characters of document around a sentence that its prompts see. */
export const CHECK_CONTEXT_CHARS = 1500;

/** Why a claim was not verified. The first five come from the check-worthiness step. */
export const SKIP_REASONS = ['opinion', 'question', 'tautology', 'not-factual', 'too-vague', 'duplicate', 'too-long'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
/** The reasons the check-worthiness task may give (the others are decided by the workflow). */
export const WORTHINESS_REASONS = ['opinion', 'question', 'tautology', 'not-factual', 'too-vague'] as const;
export type WorthinessReason = (typeof WORTHINESS_REASONS)[number];

export interface SentenceSpan {
  index: number;
  /** UTF-16 offsets into the document text, end exclusive. */
  start: number;
  end: number;
  text: string;
}

/** How the verification of each check-worthy claim is made: the same identity as `verity verify`. */
export interface CheckVerificationSettings {
  method: MethodName;
  model: string;
  rag: RagSettings;
  settings?: MethodSettings;
  identity: IdentityContext & { stamp: ConfigStamp };
}

/** One claim of the document, as the workflow carries it (sentence text lives in the document). */
export interface DocumentClaimRecord {
  sentence: number;
  /** The claim as extracted from the sentence. */
  extracted: string;
  /** The self-contained claim that is checked and verified. */
  claim: string;
  skipped?: SkipReason;
  /** The claim this one duplicates (its position among the document's claims). */
  duplicateOf?: number;
  /** The verification's workflow id (check-worthy claims). */
  workflowId?: string;
  /** Set when the verification failed for good. */
  failure?: string;
}

/** The LLM calls of the document steps (extract, decontextualise, check-worthiness); the verifications' own are in their verdicts. */
export interface CheckStepUsage {
  llmCalls: number;
  /** Answered from the request cache: no tokens paid. */
  cachedLlmCalls: number;
  /** Paid answers that were not valid (the step then fell back). */
  invalidAnswers: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
}

export const EMPTY_CHECK_STEP_USAGE: CheckStepUsage = { llmCalls: 0, cachedLlmCalls: 0, invalidAnswers: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0 };

export interface CheckDocumentState {
  phase: 'extract' | 'verify';
  nextSentence: number;
  nextClaim: number;
  claims: DocumentClaimRecord[];
  /** Sentences whose extraction gave no readable answer. */
  unreadableSentences: number[];
  /** Workflow runs so far (1 + continue-as-new count). */
  runs: number;
  /** Absent in states carried over before it was recorded. */
  stepUsage?: CheckStepUsage;
}

/** A document of a sweep's text dataset: its claims are verified in the sweep's run, not `adhoc`. */
export interface DocumentRunItem {
  runId: string;
  /** The dataset item's id (its claim id among the run's claims). */
  itemId: string;
  dataset: string;
}

export interface CheckDocumentInput {
  schemaVersion: 1;
  documentId: string;
  text: string;
  /** Set when a sweep checks the document (`check` in the sweep config); absent for `verity check`. */
  run?: DocumentRunItem;
  /** Where the text came from (a file name or "stdin"); shown, never part of the identity. */
  source?: string;
  verification: CheckVerificationSettings;
  /** id → version of the check.* LLM tasks, part of the document's identity. */
  checkPrompts: Record<string, string>;
  f1K?: number;
  window?: number;
  claimsPerRun?: number;
  state?: CheckDocumentState;
}

export interface DocumentScores {
  supported: number;
  notSupported: number;
  /** NEI verdicts: counted as not supported, as SAFE and FActScore do (see docs/check.md). */
  nei: number;
  failed: number;
  skipped: number;
  /** FActScore-style: supported / (supported + not supported); null without any verified claim. */
  precision: number | null;
  k: number;
  recallAtK: number;
  f1AtK: number;
}

export interface DocumentClaimVerdict {
  position: number;
  sentence: number;
  span: { start: number; end: number };
  sentenceText: string;
  extracted: string;
  claim: string;
  label?: VerdictLabel;
  skipped?: SkipReason;
  duplicateOf?: number;
  workflowId?: string;
  evidenceIds?: string[];
  failure?: string;
}

/** Stored in `<prefix>-documents` under the document id. */
export interface DocumentVerdict {
  schemaVersion: 1;
  documentId: string;
  source?: string;
  /** The run whose verifications these are: a sweep's run id, or absent for `verity check` (run \`adhoc\`). */
  runId?: string;
  /** The sweep's dataset item this document is (with `runId`). */
  itemId?: string;
  dataset?: string;
  /** The document's text as checked (line endings normalised); the claims' spans index into it. Absent in verdicts stored before it was kept. */
  text?: string;
  method: MethodName;
  model: string;
  checkPrompts: Record<string, string>;
  sentenceCount: number;
  unreadableSentences: number[];
  claims: DocumentClaimVerdict[];
  scores: DocumentScores;
  /** The document steps' LLM calls (absent in verdicts stored before it was recorded). */
  stepUsage?: CheckStepUsage;
  /** Its steps' and its claims' verifications' spend (absent in verdicts stored before it was recorded). */
  usage?: { tokens: number; costUsd: number };
  runs: number;
  finishedAt: string;
}

/** What the document workflow returns: the verdict itself is in Elasticsearch. */
export interface DocumentVerdictSummary {
  documentId: string;
  claimCount: number;
  scores: DocumentScores;
  /** What the document cost: its steps' LLM calls plus its claims' verifications (absent in summaries of older checks). */
  usage?: { tokens: number; costUsd: number };
}

export interface CheckProgress {
  phase: 'split' | 'extract' | 'verify' | 'storing' | 'done';
  sentences: number;
  sentencesDone: number;
  claims: number;
  toVerify: number;
  verified: number;
}
