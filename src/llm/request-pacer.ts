/**
 * Spaces this process's LLM requests evenly: request k starts no earlier than 1/rate after request
 * k-1 (GCRA with no burst allowance), so any 1-s window holds at most `rate` starts (+1 on a closed
 * window's edge). Temporal's server-side queue limit is a token bucket with a burst; this pacer is
 * what keeps bursts off the provider. Waiters are served in FIFO order; memory is one entry per
 * waiting caller plus the last start time; a caller that aborts leaves the queue and takes no slot.
 */
/** What the gateway waits on before each chat request: this pacer, or the one all machines share (SharedRequestPacer). */
export interface RequestGate {
  acquire(signal?: AbortSignal): Promise<void>;
}

export interface PacerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: PacerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Waiter {
  resolve(): void;
  detach(): void;
}

export class RequestPacer implements RequestGate {
  private readonly waiters: Waiter[] = [];
  private lastStart = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private currentRate: number;

  constructor(
    requestsPerSecond: number,
    private readonly clock: PacerClock = systemClock,
  ) {
    this.currentRate = checkedRate(requestsPerSecond);
  }

  get rate(): number {
    return this.currentRate;
  }

  /** Takes effect for the next start (a waiter already scheduled is rescheduled). */
  setRate(requestsPerSecond: number): void {
    this.currentRate = checkedRate(requestsPerSecond);
    this.reschedule();
  }

  /** Callers waiting for their start. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Resolves when this request may start; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(abortReason(signal!));
        this.reschedule();
      };
      const waiter: Waiter = { resolve, detach: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  private get intervalMs(): number {
    return 1000 / this.currentRate;
  }

  private reschedule(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.pump();
  }

  private pump(): void {
    if (this.timer !== undefined) return;
    while (this.waiters.length > 0) {
      const now = this.clock.now();
      const earliest = this.lastStart + this.intervalMs;
      if (now < earliest) {
        this.timer = this.clock.setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, Math.ceil(earliest - now));
        return;
      }
      // The start is `now`, never the missed `earliest`: idle time is not saved up for a burst.
      this.lastStart = now;
      const waiter = this.waiters.shift()!;
      waiter.detach();
      waiter.resolve();
    }
  }
}

function checkedRate(requestsPerSecond: number): number {
  if (!(requestsPerSecond > 0) || !Number.isFinite(requestsPerSecond)) throw new RangeError(`request rate must be a positive number, got ${requestsPerSecond}`);
  return requestsPerSecond;
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
