/**
 * What a verification records about each of its LLM and tool calls, for the claim explorer:
 * plain JSON, small (messages and raw responses stay in the LLM cache, named by requestHash).
 */

/** Calls of one verification kept in its transcript; beyond this only counts are kept. */
export const TRANSCRIPT_MAX_CALLS = 400;
/** Characters of a tool observation kept in the transcript. */
export const TRANSCRIPT_OBSERVATION_CHARS = 600;

export interface LlmCallRecord {
  /** The activity summary shown in the Temporal UI. */
  summary: string;
  task: string;
  promptVersion?: string;
  model?: string;
  /** The LLM cache document holding the rendered messages and the raw response. */
  requestHash?: string;
  cached?: boolean;
  attempt?: number;
  latencyMs?: number;
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
  /** Set when the call failed for good (e.g. an answer that never parsed). */
  error?: string;
  /** The answer was paid for (or served) but invalid: not JSON, wrong schema, cut off. */
  invalid?: boolean;
  /** The start of that invalid answer, for diagnosis. */
  rawExcerpt?: string;
  temperature?: number;
  seed?: number;
  /** The form a paid answer came in when it was not `json_schema` (the server rejected that form). */
  responseFormat?: 'json_object' | 'prompt';
  /** Why the prompt was shortened to fit the model's context window. */
  promptNote?: string;
}

export interface ToolCallRecord {
  summary: string;
  tool: string;
  args: Record<string, unknown>;
  isError?: boolean;
  observation?: string;
  /** Set when the call failed for good (outage, missing index). */
  error?: string;
}

export interface VerificationTranscript {
  llmCalls: LlmCallRecord[];
  toolCalls: ToolCallRecord[];
  /** Calls left out beyond TRANSCRIPT_MAX_CALLS. */
  omitted: number;
}

export function emptyTranscript(): VerificationTranscript {
  return { llmCalls: [], toolCalls: [], omitted: 0 };
}

/** LLM calls of a transcript that failed for good (an answer that never became valid, a rejected request). */
export function invalidLlmCallsOf(transcript: VerificationTranscript | undefined): number {
  return (transcript?.llmCalls ?? []).filter((call) => call.error !== undefined).length;
}

export function clipObservation(text: string): string {
  return text.length <= TRANSCRIPT_OBSERVATION_CHARS ? text : `${text.slice(0, TRANSCRIPT_OBSERVATION_CHARS)}…`;
}
