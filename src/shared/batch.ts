/**
 * Sandbox-safe types and pure helpers of the batch lane (sweeps with `batch`): LLM calls of the
 * batch models are collected per (task queue, model) by a batchCollectorWorkflow, submitted as one
 * provider batch, and each answer completes the activity that asked for it (async completion).
 */
import type { LlmTaskInput } from '../llm/types';

/** How a collector gathers and waits (the sweep config's `batch`). */
export interface BatchLaneSettings {
  /** Models whose calls go through batches. */
  models: string[];
  /** Submit once this many requests are collected (default 500). */
  maxRequests?: number;
  /** Submit what has been collected this long after its first request (default 60 s). */
  maxWaitMs?: number;
  /** Poll a submitted batch this often (default 60 s). */
  pollMs?: number;
  /** Times a request without an answer (expired, failed line) is submitted before its call fails (default 3). */
  maxSubmissions?: number;
  /** The collector continues as new past this many history events (default 5,000; tests set fewer). */
  maxHistoryEvents?: number;
}

export const BATCH_DEFAULTS = { maxRequests: 500, maxWaitMs: 60_000, pollMs: 60_000, maxSubmissions: 3, maxHistoryEvents: 5_000 } as const;

/** The batch lane's settings with every default filled in. */
export type ResolvedBatchSettings = Required<Omit<BatchLaneSettings, 'models'>>;

export function resolvedBatchSettings(settings: BatchLaneSettings): ResolvedBatchSettings {
  return {
    maxRequests: settings.maxRequests ?? BATCH_DEFAULTS.maxRequests,
    maxWaitMs: settings.maxWaitMs ?? BATCH_DEFAULTS.maxWaitMs,
    pollMs: settings.pollMs ?? BATCH_DEFAULTS.pollMs,
    maxSubmissions: settings.maxSubmissions ?? BATCH_DEFAULTS.maxSubmissions,
    maxHistoryEvents: settings.maxHistoryEvents ?? BATCH_DEFAULTS.maxHistoryEvents,
  };
}

/** The input of `llmBatchTask`: the call and how its collector batches. */
export interface LlmBatchTaskInput {
  call: LlmTaskInput;
  settings: ResolvedBatchSettings;
}

/** One waiting call, as its activity signals it to the collector. */
export interface BatchRequestSignal {
  /** The request cache's hash of the request: the same request is submitted once, whoever asks. */
  requestKey: string;
  /** The asking activity (workflow id / activity id): its retry replaces its own token, another caller adds its own. */
  callerId: string;
  /** The activity's task token, base64. The call itself waits in Elasticsearch (BatchRequestStore). */
  taskToken: string;
}

export const BATCH_REQUEST_SIGNAL = 'batchRequest';
export const BATCH_COLLECTOR_STATUS_QUERY = 'batchCollectorStatus';

/** What a collector holds (its status query). */
export interface BatchCollectorStatus {
  /** Requests not yet answered. */
  waiting: number;
  /** Of those, waiting for the next submission. */
  queued: number;
  /** Batches submitted and not yet read. */
  inFlight: string[];
  /** Batches submitted so far by this collector (across continue-as-new). */
  submissions: number;
  continuedAsNew: number;
}

export interface BatchCollectorInput {
  model: string;
  settings: ResolvedBatchSettings;
  /** Carried over by continue-as-new. */
  state?: BatchCollectorState;
}

/** A request known to the collector, with everyone waiting for it. */
export interface CollectedRequest {
  requestKey: string;
  /** Task tokens by caller id. */
  waiters: Record<string, string>;
  /** Submissions so far. */
  submissions: number;
}

export interface SubmittedBatch {
  /** `<collector id>-<seq>`, also the batch's metadata (its submission is idempotent by it). */
  submission: string;
  batchId: string;
  requestKeys: string[];
  /** Workflow time of the submission (ms), for the answers' latency. */
  submittedAt: number;
}

export interface BatchCollectorState {
  seq: number;
  /** Every request not yet answered, by key. */
  requests: Record<string, CollectedRequest>;
  /** Keys waiting for the next submission, in arrival order. */
  queue: string[];
  inFlight: SubmittedBatch[];
  /** Continue-as-new so far. */
  continuedAsNew?: number;
}

/** The collector of one model's calls on one task queue (a worker's configuration: isolation by queue). */
export function batchCollectorWorkflowId(taskQueue: string, model: string): string {
  return `verity-batch/${encodeURIComponent(taskQueue)}/${encodeURIComponent(model)}`;
}

/** A short form of the collector's workflow id for batch metadata (OpenAI allows 512 characters a value). */
export function submissionId(collectorRunKey: string, seq: number): string {
  return `${collectorRunKey.slice(0, 400)}-${seq}`;
}

/** Adds a waiting call: a known request gains (or replaces) its caller's token, a new one joins the queue. */
export function addBatchRequest(state: BatchCollectorState, signal: BatchRequestSignal): void {
  const known = state.requests[signal.requestKey];
  if (known) {
    known.waiters[signal.callerId] = signal.taskToken;
    return;
  }
  state.requests[signal.requestKey] = { requestKey: signal.requestKey, waiters: { [signal.callerId]: signal.taskToken }, submissions: 0 };
  state.queue.push(signal.requestKey);
}

export function emptyCollectorState(): BatchCollectorState {
  return { seq: 0, requests: {}, queue: [], inFlight: [] };
}

/** What became of a batch's requests: those answered or given up, and those to submit again. */
export interface BatchDelivery {
  settled: string[];
  again: string[];
}

export interface DeliverBatchInput {
  model: string;
  batchId: string;
  submittedAt: number;
  /** Every request of the batch still waiting, with its current waiters. */
  requests: CollectedRequest[];
  maxSubmissions: number;
}
