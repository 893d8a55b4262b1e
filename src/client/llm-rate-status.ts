import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { VerityConfig } from '../config/config';
import { type LlmRateState, llmRateWorkflowId } from '../shared/llm-rate';
import { llmTaskQueue } from '../shared/task-queues';
import { llmRateQuery } from '../shared/definitions/llm-rate';
import type { llmRateWorkflow } from '../../workflows/llm-rate.workflow';

/** The LLM queue's dispatch rate as `sweep status` shows it. */
export interface LlmRateStatus {
  /** Requests per second dispatched on the LLM queue now. */
  rate: number;
  /** VERITY_LLM_RPS: the rate without 429s. */
  ceiling: number;
  /** True while the adaptive controller holds the rate below the ceiling. */
  adapting: boolean;
  /** 429s counted by the latest controller (since `since`); 0 when there never was one. */
  rateLimitedCount: number;
  since?: string;
}

/** Reads the controller of the configuration's LLM queue: its live state, or the final one of its latest run. */
export async function readLlmRateStatus(client: Client, config: VerityConfig): Promise<LlmRateStatus> {
  const ceiling = config.llm.requestsPerSecond;
  const handle = client.workflow.getHandle<typeof llmRateWorkflow>(llmRateWorkflowId(llmTaskQueue(config.temporal.taskQueue)));
  let state: LlmRateState;
  let running: boolean;
  try {
    const status = (await handle.describe()).status.name;
    running = status === 'RUNNING';
    if (running) state = await handle.query(llmRateQuery);
    else if (status === 'COMPLETED') state = await handle.result();
    else return { rate: ceiling, ceiling, adapting: false, rateLimitedCount: 0 };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { rate: ceiling, ceiling, adapting: false, rateLimitedCount: 0 };
    throw err;
  }
  return { rate: running ? state.rate : ceiling, ceiling, adapting: running, rateLimitedCount: state.rateLimitedCount, since: new Date(state.since).toISOString() };
}

export function formatLlmRate(status: LlmRateStatus): string {
  const rate = status.adapting ? `${status.rate} req/s (adaptive, ceiling ${status.ceiling})` : `${status.rate} req/s (VERITY_LLM_RPS)`;
  const count = status.since ? `${status.rateLimitedCount} × 429 since ${status.since}` : 'no 429 seen';
  return `  LLM queue: ${rate}; ${count}`;
}
