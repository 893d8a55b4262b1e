/**
 * The start schedule every worker process of one LLM queue shares (GCRA with no burst): request k
 * starts no earlier than one interval after request k-1, whichever process sends it, so any window
 * [t, t + W) holds at most ceil(W · rate) starts across all machines. Idle time is not saved up, so
 * a process that joins (or a queue that was idle) gets the next slot, never a burst.
 */

/** What the schedule stores for one LLM queue. */
export interface ScheduleSlot {
  /** The earliest start of the next request (epoch ms). */
  nextFreeMs?: number;
  /** The queue-wide rate the 429 controller has set (requests per second); absent without congestion. */
  rateLimit?: number;
}

/** The rate in force: the caller's own (VERITY_LLM_RPS) or the controller's, whichever is lower. */
export function effectiveRate(requestsPerSecond: number, rateLimit?: number): number {
  return rateLimit !== undefined && rateLimit > 0 ? Math.min(requestsPerSecond, rateLimit) : requestsPerSecond;
}

/** Reserves the next start: when this request may start, and the slot as it is stored afterwards. */
export function reserveStart(slot: ScheduleSlot, nowMs: number, requestsPerSecond: number): { startMs: number; slot: ScheduleSlot } {
  const intervalMs = 1000 / effectiveRate(requestsPerSecond, slot.rateLimit);
  const startMs = Math.max(nowMs, slot.nextFreeMs ?? Number.NEGATIVE_INFINITY);
  return { startMs, slot: { ...slot, nextFreeMs: startMs + intervalMs } };
}
