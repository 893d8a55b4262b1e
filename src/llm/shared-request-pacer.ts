import type { Logger } from '../logging/logger';
import { abortReason, type PacerClock, type RequestGate, type RequestPacer, systemClock } from './request-pacer';
import { effectiveRate } from './shared-schedule';

/** Where the shared start schedule lives (LlmPacingStore; an in-memory one in unit tests). */
export interface StartReservations {
  reserve(llmTaskQueue: string, nowMs: number, requestsPerSecond: number): Promise<{ startMs: number; rateLimit?: number }>;
}

export interface SharedRequestPacerOptions {
  reservations: StartReservations;
  llmTaskQueue: string;
  /** VERITY_LLM_RPS: the cap for all machines together. */
  requestsPerSecond: number;
  /** Paces this process alone at its share while the shared schedule cannot be reached. */
  fallback: RequestPacer;
  clock?: PacerClock;
  logger?: Logger;
}

/**
 * Paces this process's LLM requests on the schedule all worker processes of the queue share
 * (shared-schedule.ts), so N machines together stay at VERITY_LLM_RPS (or the 429 controller's
 * lower rate) in every window, whenever machines join or leave. One reservation at a time per
 * process (FIFO): each process holds at most one future start, so a rate cut applies within N
 * starts. While the schedule is unreachable, the fallback pacer (the process's share) applies.
 */
export class SharedRequestPacer implements RequestGate {
  private turn: Promise<void> = Promise.resolve();
  private currentRate: number;
  private failing = false;
  private readonly clock: PacerClock;

  constructor(private readonly options: SharedRequestPacerOptions) {
    this.clock = options.clock ?? systemClock;
    this.currentRate = options.requestsPerSecond;
  }

  /** The rate of all machines together, as of the last reservation (requests per second). */
  get rate(): number {
    return this.currentRate;
  }

  /** Resolves when this request may start; rejects with the signal's reason if it aborts first (its start, if reserved, goes unused). */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const mine = this.turn.then(() => (signal?.aborted ? Promise.reject(abortReason(signal)) : this.takeStart(signal)));
    this.turn = mine.catch(() => undefined);
    return signal ? Promise.race([mine, abortion(signal)]) : mine;
  }

  private async takeStart(signal?: AbortSignal): Promise<void> {
    const { reservations, llmTaskQueue, requestsPerSecond, fallback, logger } = this.options;
    let startMs: number;
    try {
      const reserved = await reservations.reserve(llmTaskQueue, this.clock.now(), requestsPerSecond);
      startMs = reserved.startMs;
      this.currentRate = effectiveRate(requestsPerSecond, reserved.rateLimit);
      if (this.failing) logger?.info({ llmTaskQueue }, 'the shared LLM request schedule is back');
      this.failing = false;
    } catch (err) {
      // Once per outage: this process alone keeps to its share until the schedule answers again.
      if (!this.failing) logger?.warn({ err: (err as Error).message, llmTaskQueue, rate: fallback.rate }, 'could not reserve on the shared LLM request schedule; pacing this process at its share');
      this.failing = true;
      return fallback.acquire(signal);
    }
    await this.sleepUntil(startMs, signal);
  }

  private sleepUntil(startMs: number, signal?: AbortSignal): Promise<void> {
    const waitMs = startMs - this.clock.now();
    if (waitMs <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.clock.clearTimeout(handle);
        reject(abortReason(signal!));
      };
      const handle = this.clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.ceil(waitMs));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function abortion(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(abortReason(signal)), { once: true }));
}
