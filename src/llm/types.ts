import type { AgentRole } from '../config/config';
import type { LlmCorrection } from '../shared/invalid-answer';
import type { MethodSampling } from '../shared/sampling';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Set on role 'tool' messages. */
  tool_call_id?: string;
  name?: string;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Of completionTokens, the model's reasoning (usage.completion_tokens_details.reasoning_tokens), when the server reports it; billed as output. */
  reasoningTokens?: number;
  /** From the price table; 0 for unknown models and the simulator. */
  costUsd: number;
  /** False when the model has no entry in the price table (so costUsd 0 means "unknown"). */
  priced?: boolean;
}

/** Input of the `llmTask` activity: a registered structured task and its variables (plain JSON). */
export interface LlmTaskInput {
  /** Registered task id, e.g. 'rag.verdict'. */
  task: string;
  variables: Record<string, unknown>;
  /** Overrides the task's default agent role (and so the model). */
  role?: AgentRole;
  /** Overrides the model configured for the role (sweeps over models pass it in workflow input). */
  model?: string;
  /** The method's sampling settings; the activity applies those of the call's role over the worker's. */
  sampling?: MethodSampling;
  /** A re-ask after an invalid answer: that answer and a correction naming the fields are appended. */
  correction?: LlmCorrection;
}

/**
 * How an answer's structure was asked for: `json_schema` (response_format with the schema), or a
 * fallback after the server rejected it: `json_object` (schema in the prompt) or `prompt` (schema
 * in the prompt, no response_format). `text`: no structure at all, the answer as the model wrote it
 * (tasks with `answer: 'text'`, e.g. a paper's released prompts rendered verbatim).
 */
export type ResponseFormat = 'json_schema' | 'json_object' | 'prompt' | 'text';

/** Result of the `llmTask` activity. `output` has been validated by the task's zod schema. */
export interface LlmTaskResult<T = unknown> {
  output: T;
  usage: LlmUsage;
  model: string;
  temperature: number;
  seed: number;
  /** Sent only when a method set them. */
  topP?: number;
  maxTokens?: number;
  promptVersion: string;
  requestHash: string;
  /** True when the answer came from the Elasticsearch request cache (no call was paid for). */
  cached: boolean;
  latencyMs: number;
  /** The activity attempt that produced it (1 unless Temporal retried the call). */
  attempt?: number;
  /** The form that produced a paid answer (unset for cached ones): anything but the server's first form (`firstResponseFormat`, else `json_schema`) is a counted fallback. */
  responseFormat?: ResponseFormat;
  /** Set when the capability table starts this model at another form than json_schema (e.g. `prompt` for a server that ignores response_format): that form is no fallback. */
  firstResponseFormat?: ResponseFormat;
  /** Set when the prompt was shortened to fit the model's context window, e.g. "evidence trimmed: 12 → 5 passages to fit 2,048-token window". */
  promptNote?: string;
}
