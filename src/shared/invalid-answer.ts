/**
 * An LLM answer that was paid for but never became valid (not JSON, wrong schema, cut off): what
 * the failure carries so that the workflow still counts the call (usage, cost, budgets, limits).
 * Sandbox-safe: workflows import values from here.
 */

/** Usage and identity of a paid call whose answer was invalid. */
export interface PaidInvalidCall {
  model: string;
  temperature: number;
  seed: number;
  promptVersion: string;
  requestHash: string;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
}

/** The details of an LlmOutputInvalid failure (the first entry of ApplicationFailure.details). */
export interface InvalidOutputDetails {
  rawExcerpt: string;
  /** Absent when nothing was paid (e.g. a cached answer that no longer validates) and in failures recorded before. */
  call?: PaidInvalidCall;
}

/** Characters of the raw answer kept in a transcript entry. */
export const TRANSCRIPT_RAW_EXCERPT_CHARS = 300;

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === 'string';

/** Reads the details of an LlmOutputInvalid failure defensively (they cross Temporal as plain JSON). */
export function readInvalidOutputDetails(details: readonly unknown[] | null | undefined): InvalidOutputDetails {
  const first = details?.[0] as Record<string, unknown> | undefined;
  const rawExcerpt = isString(first?.rawExcerpt) ? first.rawExcerpt : '';
  const call = first?.call as Record<string, unknown> | undefined;
  if (!call || typeof call !== 'object') return { rawExcerpt };
  const numbers = ['temperature', 'seed', 'promptTokens', 'completionTokens', 'totalTokens', 'costUsd'] as const;
  const strings = ['model', 'promptVersion', 'requestHash'] as const;
  if (!numbers.every((key) => isNumber(call[key])) || !strings.every((key) => isString(call[key]))) return { rawExcerpt };
  return { rawExcerpt, call: call as unknown as PaidInvalidCall };
}

/**
 * A re-ask after an invalid answer: the call is sent again with the invalid answer and a correction
 * appended (a different request, so never served from the request cache).
 */
export interface LlmCorrection {
  /** Why the answer was invalid (the validation message). */
  problem: string;
  /** The start of the invalid answer. */
  rawExcerpt: string;
}

/** Characters of the problem and the invalid answer repeated to the model. */
const CORRECTION_PROBLEM_CHARS = 400;
const CORRECTION_ANSWER_CHARS = 600;

/** The messages appended to a re-asked call: the invalid answer, then what was wrong and the fields required. */
export function correctionMessages(correction: LlmCorrection, requiredFields: readonly string[]): { role: 'assistant' | 'user'; content: string }[] {
  const problem = correction.problem.replace(/\s+/g, ' ').trim().slice(0, CORRECTION_PROBLEM_CHARS);
  const fields = requiredFields.length > 0 ? ` with exactly these fields: ${requiredFields.map((field) => `"${field}"`).join(', ')}` : '';
  const answer = correction.rawExcerpt.slice(0, CORRECTION_ANSWER_CHARS);
  return [
    ...(answer.trim() !== '' ? [{ role: 'assistant' as const, content: answer }] : []),
    {
      role: 'user',
      content: `Your previous answer was not valid (${problem}). Answer again with one complete JSON object${fields}, and nothing else.`,
    },
  ];
}

/** Whether a transcript summary names a re-ask (the Temporal UI and the explorer show it). */
export const REASK_SUFFIX = ' · re-ask after invalid answer';

/** A method step that got no valid answer, even when re-asked, and what the method did instead (kept in the trace). */
export interface InvalidAnswerFallback {
  step: string;
  problem: string;
  fallback: string;
}
