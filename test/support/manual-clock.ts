import type { PacerClock } from '../../src/llm/request-pacer';

/** A manual clock: timers fire only when the test advances time. */
export class ManualClock implements PacerClock {
  time = 1_000_000;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 0;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Advances to `until`, firing due timers in order, and lets the resolved promises run. */
  async advanceTo(until: number): Promise<void> {
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.time = Math.max(this.time, due.at);
      this.timers = this.timers.filter((timer) => timer !== due);
      due.callback();
      await flush();
    }
    this.time = Math.max(this.time, until);
    await flush();
  }
}

export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
