import { describe, expect, it } from 'vitest';
import { perProcessRate, POLLER_FRESH_MS } from '../../src/llm/pacer-rate';
import { RequestPacer } from '../../src/llm/request-pacer';
import { flush, ManualClock } from '../support/manual-clock';


/** The most starts in any closed window [t, t + 1000] ms, t a start time. */
function peakPerSecond(starts: readonly number[]): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let peak = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[j]! < sorted[i]! - 1000) j += 1;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

function startAll(pacer: RequestPacer, clock: ManualClock, count: number, signals: (AbortSignal | undefined)[] = []) {
  const starts: number[] = [];
  const order: number[] = [];
  const outcomes = Array.from({ length: count }, (_, index) =>
    pacer.acquire(signals[index]).then(
      () => {
        starts.push(clock.now());
        order.push(index);
        return 'started' as const;
      },
      () => 'aborted' as const,
    ),
  );
  return { starts, order, outcomes };
}

describe('RequestPacer', () => {
  it('lets the first request start at once and spaces a burst at 1/rate, so no second holds more than rate + 1 starts', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer(10, clock);
    const t0 = clock.now();
    const { starts, order } = startAll(pacer, clock, 40);
    await flush();
    expect(starts).toEqual([t0]);
    await clock.advanceTo(t0 + 10_000);
    expect(starts).toHaveLength(40);
    expect(order).toEqual([...Array(40).keys()]);
    for (let i = 1; i < starts.length; i += 1) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(100);
    expect(peakPerSecond(starts)).toBe(11);
    expect(starts.at(-1)! - t0).toBe(3_900);
  });

  it('does not save idle time up for a burst', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer(5, clock);
    const first = startAll(pacer, clock, 1);
    await clock.advanceTo(clock.now() + 60_000);
    expect(first.starts).toHaveLength(1);
    const t1 = clock.now();
    const { starts } = startAll(pacer, clock, 10);
    await flush();
    await clock.advanceTo(t1 + 5_000);
    expect(starts[0]).toBe(t1);
    expect(peakPerSecond(starts)).toBe(6);
    expect(starts.at(-1)! - t1).toBe(1_800);
  });

  it('drops an aborted waiter from the queue without taking its slot, and rejects with the abort reason', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer(10, clock);
    const t0 = clock.now();
    const cancel = new AbortController();
    const { starts, order, outcomes } = startAll(pacer, clock, 4, [undefined, cancel.signal, undefined, undefined]);
    await flush();
    expect(pacer.waiting).toBe(3);
    cancel.abort(new Error('activity cancelled'));
    await flush();
    expect(pacer.waiting).toBe(2);
    await clock.advanceTo(t0 + 1_000);
    expect(await Promise.all(outcomes)).toEqual(['started', 'aborted', 'started', 'started']);
    expect(order).toEqual([0, 2, 3]);
    expect(starts).toEqual([t0, t0 + 100, t0 + 200]);
    await expect(pacer.acquire(cancel.signal)).rejects.toThrow('activity cancelled');
    expect(pacer.waiting).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('applies a new rate to the waiters already queued', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer(1, clock);
    const t0 = clock.now();
    const { starts } = startAll(pacer, clock, 3);
    await flush();
    pacer.setRate(10);
    await clock.advanceTo(t0 + 300);
    expect(starts).toEqual([t0, t0 + 100, t0 + 200]);
  });

  it('refuses a rate that is not a positive number', () => {
    expect(() => new RequestPacer(0)).toThrow(RangeError);
    expect(() => new RequestPacer(Number.NaN)).toThrow(RangeError);
  });
});

describe('perProcessRate', () => {
  const now = 10_000_000;

  it('is R when this process is the only poller, and R/2 with a second process seen polling', () => {
    expect(perProcessRate(10, [], now, undefined, 'a@host')).toBe(10);
    expect(perProcessRate(10, [{ identity: 'a@host', lastAccessMs: now - 1_000 }], now, undefined, 'a@host')).toBe(10);
    const two = [
      { identity: 'a@host', lastAccessMs: now - 1_000 },
      { identity: 'b@host', lastAccessMs: now - 30_000 },
    ];
    expect(perProcessRate(10, two, now, undefined, 'a@host')).toBe(5);
    // This process is counted before its own poll is seen.
    expect(perProcessRate(10, [two[1]!], now, undefined, 'a@host')).toBe(5);
  });

  it('ignores pollers not seen for longer than POLLER_FRESH_MS and counts one identity once', () => {
    const pollers = [
      { identity: 'a@host', lastAccessMs: now },
      { identity: 'a@host', lastAccessMs: now - 5_000 },
      { identity: 'gone@host', lastAccessMs: now - POLLER_FRESH_MS - 1 },
    ];
    expect(perProcessRate(12, pollers, now, undefined, 'a@host')).toBe(12);
  });

  it('takes the lower queue-wide limit the rate controller set after 429s', () => {
    const pollers = [{ identity: 'b@host', lastAccessMs: now }];
    expect(perProcessRate(10, pollers, now, 4, 'a@host')).toBe(2);
    expect(perProcessRate(10, pollers, now, 40, 'a@host')).toBe(5);
  });
});
