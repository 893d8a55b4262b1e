import { humanDuration } from '../src/shared/human-duration';
import type { InfraLog } from './support';

/** How often a step with no progress of its own (pip install, pip download) says it is still running. */
export const HEARTBEAT_INTERVAL_MS = 15_000;

/**
 * Runs `work`, logging `<what>: still running (<elapsed>)` every `intervalMs` until it settles: a
 * first-use install that reports nothing itself is never minutes of silence, and never a line per second.
 */
export async function withHeartbeat<T>(what: string, log: InfraLog, work: () => Promise<T>, intervalMs = HEARTBEAT_INTERVAL_MS): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => log(`${what}: still running (${humanDuration(Date.now() - started)})`), intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
