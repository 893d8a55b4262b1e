import type { Client } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import { type LlmRateSettings, llmRateWorkflowId, type RateLimitedReport } from '../shared/llm-rate';
import { llmTaskQueue } from '../shared/task-queues';
import { llmRateLimitedSignal } from '../shared/definitions/llm-rate';
import type { llmRateWorkflow } from '../../workflows/llm-rate.workflow';

/** 429s seen within this window are sent as one signal. */
const BATCH_MS = 250;

/**
 * Tells the LLM queue's rate controller about 429s (signal-with-start, so the first 429 starts
 * it), batching those of one worker. Best effort: a report that cannot be sent is logged, and the
 * LLM call is retried as usual.
 */
export class RateLimitReporter {
  private pending: RateLimitedReport | undefined;

  constructor(
    private readonly options: {
      temporal: () => Promise<Client>;
      /** The main task queue (the controller workflow runs there). */
      taskQueue: string;
      settings: LlmRateSettings;
      logger?: Logger;
    },
  ) {}

  report(retryAfterMs?: number): void {
    const first = this.pending === undefined;
    const count = (this.pending?.count ?? 0) + 1;
    const longest = Math.max(this.pending?.retryAfterMs ?? 0, retryAfterMs ?? 0);
    this.pending = { count, ...(longest > 0 ? { retryAfterMs: longest } : {}) };
    if (first) setTimeout(() => void this.flush(), BATCH_MS).unref();
  }

  private async flush(): Promise<void> {
    const report = this.pending;
    this.pending = undefined;
    if (!report) return;
    const llmQueue = llmTaskQueue(this.options.taskQueue);
    try {
      const client = await this.options.temporal();
      await client.workflow.signalWithStart<typeof llmRateWorkflow, [RateLimitedReport]>('llmRateWorkflow', {
        workflowId: llmRateWorkflowId(llmQueue),
        taskQueue: this.options.taskQueue,
        args: [{ llmTaskQueue: llmQueue, settings: this.options.settings }],
        signal: llmRateLimitedSignal,
        signalArgs: [report],
      });
    } catch (err) {
      this.options.logger?.warn({ err: (err as Error).message, count: report.count }, 'could not report 429s to the LLM rate controller');
    }
  }
}
