/**
 * A provider's requests-per-second limit as the simulator plays it: a token bucket holding one
 * second's worth of requests (at least one), refilled at `requestsPerSecond`; a request finding it
 * empty is refused (429) and takes nothing.
 */
export class ProviderRateLimit {
  private tokens: number;
  private lastMs: number | undefined;
  private readonly capacity: number;

  constructor(private readonly requestsPerSecond: number) {
    if (!(requestsPerSecond > 0) || !Number.isFinite(requestsPerSecond)) throw new RangeError(`rate limit must be a positive number, got ${requestsPerSecond}`);
    this.capacity = Math.max(1, requestsPerSecond);
    this.tokens = this.capacity;
  }

  /** Whether a request arriving at `nowMs` is over the limit. */
  refuses(nowMs: number): boolean {
    if (this.lastMs !== undefined) this.tokens = Math.min(this.capacity, this.tokens + ((nowMs - this.lastMs) / 1000) * this.requestsPerSecond);
    this.lastMs = nowMs;
    if (this.tokens < 1) return true;
    this.tokens -= 1;
    return false;
  }
}
