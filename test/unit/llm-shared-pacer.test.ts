import { describe, expect, it } from 'vitest';
import { RequestPacer } from '../../src/llm/request-pacer';
import { reserveStart, type ScheduleSlot } from '../../src/llm/shared-schedule';
import { SharedRequestPacer, type StartReservations } from '../../src/llm/shared-request-pacer';
import { flush, ManualClock } from '../support/manual-clock';

/** The shared schedule in memory: reserveStart over one slot per queue, as LlmPacingStore does in Elasticsearch. */
class MemoryReservations implements StartReservations {
  slots = new Map<string, ScheduleSlot>();
  down = false;

  async reserve(queue: string, nowMs: number, requestsPerSecond: number) {
    if (this.down) throw new Error('connect ECONNREFUSED');
    const { startMs, slot } = reserveStart(this.slots.get(queue) ?? {}, nowMs, requestsPerSecond);
    this.slots.set(queue, slot);
    return { startMs, ...(slot.rateLimit !== undefined ? { rateLimit: slot.rateLimit } : {}) };
  }

  setRateLimit(queue: string, rateLimit: number | undefined) {
    const { rateLimit: _old, ...rest } = this.slots.get(queue) ?? {};
    this.slots.set(queue, rateLimit === undefined ? rest : { ...rest, rateLimit });
  }
}

/** The most starts in any window [t, t + windowMs), t a start. */
function peak(starts: readonly number[], windowMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[j]! <= sorted[i]! - windowMs) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** Advances the clock by `ms` in 100-ms steps: each request reserves only after the one before it started. */
async function advance(clock: ManualClock, ms: number): Promise<void> {
  const until = clock.time + ms;
  while (clock.time < until) await clock.advanceTo(Math.min(until, clock.time + 100));
}

function pacerOf(reservations: StartReservations, clock: ManualClock, rate: number) {
  return new SharedRequestPacer({ reservations, llmTaskQueue: 'q-llm', requestsPerSecond: rate, fallback: new RequestPacer(rate, clock), clock });
}

/** Starts `count` requests on `pacer` now; records when each may start. */
function request(pacer: SharedRequestPacer, clock: ManualClock, count: number, starts: number[], signal?: AbortSignal) {
  return Array.from({ length: count }, () => pacer.acquire(signal).then(() => void starts.push(clock.now())));
}

describe('reserveStart (the schedule all machines share)', () => {
  it('spaces starts one interval apart and saves up no idle time', () => {
    let slot: ScheduleSlot = {};
    const starts: number[] = [];
    for (const now of [0, 0, 0, 5_000, 5_000]) {
      const reserved = reserveStart(slot, now, 2);
      starts.push(reserved.startMs);
      slot = reserved.slot;
    }
    expect(starts).toEqual([0, 500, 1000, 5000, 5500]);
  });

  it('follows the 429 controller when it is lower than the caller’s rate, never when higher', () => {
    expect(reserveStart({ nextFreeMs: 0, rateLimit: 0.5 }, 0, 2).slot.nextFreeMs).toBe(2000);
    expect(reserveStart({ nextFreeMs: 0, rateLimit: 10 }, 0, 2).slot.nextFreeMs).toBe(500);
  });
});

describe('SharedRequestPacer', () => {
  it('keeps three processes together at the rate, with one joining mid-burst and starting no burst', async () => {
    const clock = new ManualClock();
    const reservations = new MemoryReservations();
    const R = 0.5;
    const starts: number[] = [];
    const first = pacerOf(reservations, clock, R);
    const second = pacerOf(reservations, clock, R);
    const pending = [...request(first, clock, 8, starts), ...request(second, clock, 8, starts)];
    await advance(clock, 7_000);
    // A third process joins 7 s in with its own queue of requests: it takes the next shared slot.
    const third = pacerOf(reservations, clock, R);
    pending.push(...request(third, clock, 8, starts));
    await advance(clock, 60_000);
    await Promise.all(pending);
    expect(starts).toHaveLength(24);
    const gaps = [...starts].sort((a, b) => a - b).slice(1).map((t, i) => t - [...starts].sort((a, b) => a - b)[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / R);
    expect(peak(starts, 10_000)).toBeLessThanOrEqual(10 * R);
  });

  it('applies a rate cut of the 429 controller within one start per process', async () => {
    const clock = new ManualClock();
    const reservations = new MemoryReservations();
    const starts: number[] = [];
    const pending = [...request(pacerOf(reservations, clock, 4), clock, 10, starts), ...request(pacerOf(reservations, clock, 4), clock, 10, starts)];
    await advance(clock, 1_000);
    const cutAt = clock.now();
    reservations.setRateLimit('q-llm', 1);
    await advance(clock, 30_000);
    await Promise.all(pending);
    const after = starts.filter((t) => t > cutAt).sort((a, b) => a - b);
    // At most one start per process was reserved before the cut; the rest are 1 s apart.
    const gaps = after.slice(1).map((t, i) => t - after[i]!);
    expect(gaps.filter((gap) => gap < 1000).length).toBeLessThanOrEqual(2);
  });

  it('lets an aborted waiter leave at once, taking no start from those behind it', async () => {
    const clock = new ManualClock();
    const pacer = pacerOf(new MemoryReservations(), clock, 1);
    const starts: number[] = [];
    const controller = new AbortController();
    const firstTwo = request(pacer, clock, 2, starts);
    const aborted = pacer.acquire(controller.signal);
    const last = request(pacer, clock, 1, starts);
    controller.abort(new Error('cancelled'));
    await expect(aborted).rejects.toThrow('cancelled');
    await advance(clock, 10_000);
    await Promise.all([...firstTwo, ...last]);
    expect(starts.map((t) => t - starts[0]!)).toEqual([0, 1000, 2000]);
  });

  it('paces this process at its share with the fallback pacer while the schedule is unreachable', async () => {
    const clock = new ManualClock();
    const reservations = new MemoryReservations();
    reservations.down = true;
    const fallback = new RequestPacer(0.25, clock);
    const pacer = new SharedRequestPacer({ reservations, llmTaskQueue: 'q-llm', requestsPerSecond: 1, fallback, clock });
    const starts: number[] = [];
    const pending = request(pacer, clock, 3, starts);
    await advance(clock, 20_000);
    await Promise.all(pending);
    await flush();
    expect(starts.map((t) => t - starts[0]!)).toEqual([0, 4000, 8000]);
  });
});
