import os from 'node:os';
import type { Client } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import type { Logger } from '../logging/logger';
import type { RequestPacer } from './request-pacer';

const ACTIVITY_QUEUE = temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY;

/** A poller seen longer ago than this is taken for a stopped process. */
export const POLLER_FRESH_MS = 120_000;
export const PACER_REFRESH_MS = 15_000;
/** The first refresh after start, once this process's own worker has polled. */
const FIRST_REFRESH_MS = 3_000;

/** The SDK's default worker identity: the pollers of one process share it. */
export const PROCESS_IDENTITY = `${process.pid}@${os.hostname()}`;

export interface LlmQueuePoller {
  identity: string;
  lastAccessMs?: number;
}

/**
 * This process's share of the queue's rate: the lower of R and the queue-wide limit the rate
 * controller may have set (429s), divided by the worker processes polling the LLM queue (distinct
 * identities seen within POLLER_FRESH_MS, this process counted even before its first poll shows).
 */
export function perProcessRate(requestsPerSecond: number, pollers: readonly LlmQueuePoller[], nowMs: number, queueRateLimit?: number, selfIdentity = PROCESS_IDENTITY): number {
  const fresh = new Set(pollers.filter((p) => p.lastAccessMs === undefined || nowMs - p.lastAccessMs <= POLLER_FRESH_MS).map((p) => p.identity));
  fresh.add(selfIdentity);
  const global = queueRateLimit !== undefined && queueRateLimit > 0 ? Math.min(requestsPerSecond, queueRateLimit) : requestsPerSecond;
  return global / Math.max(1, fresh.size);
}

/** The LLM queue's activity pollers and queue-wide rate limit, in one DescribeTaskQueue call. */
export async function describeLlmQueue(client: Client, llmTaskQueue: string): Promise<{ pollers: LlmQueuePoller[]; queueRateLimit?: number }> {
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: llmTaskQueue },
    taskQueueType: ACTIVITY_QUEUE,
    reportConfig: true,
  });
  const pollers = (response.pollers ?? []).map((p) => ({ identity: p.identity ?? '', lastAccessMs: optionalTsToMs(p.lastAccessTime) }));
  const queueRateLimit = response.config?.queueRateLimit?.rateLimit?.requestsPerSecond ?? undefined;
  return { pollers, ...(queueRateLimit ? { queueRateLimit } : {}) };
}

/**
 * Keeps the pacer at this process's share, asking Temporal every PACER_REFRESH_MS. Never blocks a
 * call: until the first answer (and after a failed one) the pacer keeps its last rate.
 */
export class PacerRateRefresher {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private refreshes = 0;
  private failing = false;

  constructor(
    private readonly options: {
      pacer: RequestPacer;
      requestsPerSecond: number;
      temporal: () => Promise<Client>;
      llmTaskQueue: string;
      intervalMs?: number;
      logger?: Logger;
    },
  ) {}

  /** The pacer's current rate (requests per second of this process). */
  get rate(): number {
    return this.options.pacer.rate;
  }

  private get intervalMs(): number {
    return this.options.intervalMs ?? PACER_REFRESH_MS;
  }

  start(): void {
    void this.refresh();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** One refresh now (tests call it to skip the wait). */
  async refresh(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    try {
      const { pollers, queueRateLimit } = await describeLlmQueue(await this.options.temporal(), this.options.llmTaskQueue);
      const rate = perProcessRate(this.options.requestsPerSecond, pollers, Date.now(), queueRateLimit);
      if (rate !== this.options.pacer.rate) {
        this.options.logger?.info({ rate, pollers: pollers.length, queueRateLimit }, 'LLM request pacer rate');
        this.options.pacer.setRate(rate);
      }
      this.failing = false;
    } catch (err) {
      // Once per outage: the next refreshes retry quietly.
      if (!this.stopped && !this.failing) this.options.logger?.warn({ err: (err as Error).message }, 'could not read the LLM queue pollers; the request pacer keeps its rate');
      this.failing = true;
    } finally {
      this.refreshes += 1;
      const delay = this.refreshes === 1 ? Math.min(FIRST_REFRESH_MS, this.intervalMs) : this.intervalMs;
      if (!this.stopped) this.timer = setTimeout(() => void this.refresh(), delay).unref();
    }
  }
}
