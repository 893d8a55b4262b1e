import { describe, expect, it } from 'vitest';
import { inBackground } from '../../eval/bench/throughput/background-loop';

describe('bench:throughput background loop', () => {
  it('hands a failed loop’s error to the measurement that checks it, instead of an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const loop = inBackground(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error('search_phase_execution_exception');
      });
      expect(() => loop.check()).not.toThrow();
      await loop.settled;
      expect(() => loop.check()).toThrow('search_phase_execution_exception');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('settles quietly when the loop ends', async () => {
    let rounds = 0;
    const loop = inBackground(async () => {
      while (rounds < 3) rounds += await Promise.resolve(1);
    });
    await loop.settled;
    expect(rounds).toBe(3);
    expect(() => loop.check()).not.toThrow();
  });
});
