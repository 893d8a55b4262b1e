import type { BatchLaneSettings } from './batch';
/**
 * Sandbox-safe types and guards of one claim verification, shared by workflows, activities and
 * clients. No imports with runtime effect: workflows import values from here.
 */
import { MAX_CLAIM_CHARS, type MethodName, type VerdictLabel } from './constants';
import type { VerificationIdentity } from './identity';
import type { MethodSettings } from './method-settings';
import type { RetrievalMode } from './retrieval';
import type { MethodSampling } from './sampling';
import type { VerificationTranscript } from './transcript';
import type { VerificationLimits } from './verification-limits';

export interface RagSettings {
  /** Passages retrieved for the verdict. */
  topK: number;
  /** Elasticsearch index holding the passages. */
  index: string;
  /** Absent: bm25 (inputs recorded before retrieval modes existed have none). */
  mode?: RetrievalMode;
}

export interface VerifyClaimInput {
  schemaVersion: 1;
  /** Run this verification belongs to ('adhoc' for single CLI verifications, a sweep id otherwise). */
  runId: string;
  claimId: string;
  claim: string;
  method: MethodName;
  dataset?: string;
  /** Model per agent role; recorded with the result. Absent roles use the worker's configuration. */
  model: string;
  rag: RagSettings;
  /** Settings of the chosen method (its entry only is read); defaults when absent. */
  settings?: MethodSettings;
  /** Ends the verification (type VerificationLimitReached, spend kept) when one is reached. */
  limits?: VerificationLimits;
  /** What makes this verification itself (src/shared/identity.ts); absent in inputs recorded before it existed. */
  identity?: VerificationIdentity;
  /**
   * What the workflow returns: the whole verdict (default), or a VerdictSummary for callers that
   * only count (sweeps), so that their histories do not carry every trace. The verdict is stored
   * either way. Not part of the identity.
   */
  reply?: 'verdict' | 'summary';
  /** LLM calls of these models go through provider batches (same answers, batch price). Not part of the identity. */
  batch?: BatchLaneSettings;
}

export interface EvidencePassage {
  id: string;
  docId: string;
  title: string;
  text: string;
  score: number;
}

export interface VerdictUsage {
  llmCalls: number;
  cachedLlmCalls: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  /**
   * LLM answers that were not valid (not JSON, wrong schema, cut off) and that the method handled
   * (re-asked, a fallback, a used-up step); each is also in `llmCalls` and in the transcript.
   * Absent in verdicts recorded before it was counted.
   */
  invalidAnswers?: number;
  /**
   * Paid answers the server gave without `response_format: json_schema` (it rejected that form, so
   * the request fell back to json_object or the schema in the prompt). Absent in older verdicts.
   */
  formatFallbacks?: number;
  /** LLM calls whose prompt was shortened (evidence trimmed) to fit the model's context window. Absent in older verdicts. */
  trimmedPrompts?: number;
  /** Of completionTokens, the models' reasoning (billed as output); present only when a server reported it. */
  reasoningTokens?: number;
}

export interface Verdict {
  schemaVersion: 1;
  workflowId: string;
  runId: string;
  claimId: string;
  dataset?: string;
  method: MethodName;
  claim: string;
  label: VerdictLabel;
  /** The label in the method's own vocabulary (e.g. MERMAID's "true"/"false"), when it has one. */
  methodLabel?: string;
  rationale: string;
  citedPassageIds: string[];
  evidence: EvidencePassage[];
  model: string;
  temperature: number;
  seed: number;
  /** The method's sampling settings (`settings.<method>.llm`), when it set any: per role, as asked. */
  sampling?: MethodSampling;
  promptVersion: string;
  usage: VerdictUsage;
  /** The method's step-by-step record (thoughts, tool calls, rounds, tree …), plain JSON. */
  trace?: MethodTrace;
  /** Every LLM call (by its LLM-cache reference) and tool call, in order; absent in older verdicts. */
  transcript?: VerificationTranscript;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
}

/** What a verification returns when its input asks for `reply: 'summary'`; the verdict itself is in Elasticsearch. */
export interface VerdictSummary {
  summary: true;
  workflowId: string;
  label: VerdictLabel;
  usage: VerdictUsage;
}

export function summarizeVerdict(verdict: Verdict): VerdictSummary {
  return { summary: true, workflowId: verdict.workflowId, label: verdict.label, usage: verdict.usage };
}

export function isVerdictSummary(result: Verdict | VerdictSummary): result is VerdictSummary {
  return 'summary' in result && result.summary === true;
}

/** The result of a verification started without `reply: 'summary'`, which is always the whole verdict. */
export function fullVerdict(result: Verdict | VerdictSummary): Verdict {
  if (isVerdictSummary(result)) throw new Error(`verification ${result.workflowId} replied with a summary; its verdict is in the verdicts index`);
  return result;
}

/** A method's trace: plain JSON named by its method, the rest is the method's own shape. */
export interface MethodTrace {
  method: MethodName;
  [field: string]: unknown;
}

/** The counters every verdict has (`reasoningTokens` only when a server reported some). */
export type CountedUsage = Required<Omit<VerdictUsage, 'reasoningTokens'>> & Pick<VerdictUsage, 'reasoningTokens'>;

export const EMPTY_USAGE: Required<Omit<VerdictUsage, 'reasoningTokens'>> = {
  llmCalls: 0,
  cachedLlmCalls: 0,
  toolCalls: 0,
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  costUsd: 0,
  invalidAnswers: 0,
  formatFallbacks: 0,
  trimmedPrompts: 0,
};

/** A text's length in characters (Unicode code points: an emoji or a CJK extension character is one, not two UTF-16 units). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** Text with at least one visible character (not only spaces, controls and zero-width or other invisible characters). */
export function hasVisibleText(text: string): boolean {
  return /[^\s\p{Cc}\p{Cf}\p{Zs}\p{Default_Ignorable_Code_Point}]/u.test(text);
}

/**
 * Returns a one-line problem description, or null when the input can be verified; `knownMethods` are
 * the registered methods (the workflow passes its runner table's, clients the registry's). `utf16Units`
 * measures the claim as verifications recorded before characters were counted did (replay only).
 */
export function findVerifyInputProblem(input: Pick<VerifyClaimInput, 'claim' | 'method'>, knownMethods: readonly string[], options: { utf16Units?: boolean } = {}): string | null {
  if (typeof input.claim !== 'string' || input.claim.trim() === '') {
    return 'the claim is empty';
  }
  const length = options.utf16Units ? input.claim.length : characterCount(input.claim);
  if (length > MAX_CLAIM_CHARS) {
    return `the claim has ${length} characters; at most ${MAX_CLAIM_CHARS} are accepted`;
  }
  if (!knownMethods.includes(input.method)) {
    return `unknown method "${String(input.method)}"; known methods: ${knownMethods.join(', ')}`;
  }
  return null;
}

/**
 * The workflow id of verifications started before identities existed (`verify/<run>/<claim>/<method>[/<model>]`);
 * kept so that sweeps recorded then replay. New verifications use identity.ts's verifyWorkflowId.
 */
export function legacyVerifyWorkflowId(runId: string, claimId: string, method: MethodName, model?: string): string {
  const base = `verify/${runId}/${claimId}/${method}`;
  return model === undefined ? base : `${base}/${encodeURIComponent(model)}`;
}
