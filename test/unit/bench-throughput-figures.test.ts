import { describe, expect, it } from 'vitest';
import { peakInWindow, processCpuSeconds, providerBound } from '../../eval/bench/throughput/figures';

describe('bench:throughput figures', () => {
  it('finds the most events in any 1-s window, not only in aligned seconds', () => {
    expect(peakInWindow([])).toBe(0);
    expect(peakInWindow([0, 999, 1_000, 1_999])).toBe(2);
    expect(peakInWindow([500, 900, 1_100, 1_400, 2_600])).toBe(4);
    expect(peakInWindow([3, 1, 2])).toBe(3);
  });
  it('names the bound that binds: the rate, or the window over the latency', () => {
    expect(providerBound({ rps: 50, concurrency: 64, latencyS: 0.5, llmCallsPerClaim: 1, llmRoundsPerClaim: 1 })).toEqual({ claimsPerSecond: 50, binds: 'rate' });
    expect(providerBound({ rps: 50, concurrency: 64, latencyS: 2, llmCallsPerClaim: 1, llmRoundsPerClaim: 1 })).toEqual({ claimsPerSecond: 32, binds: 'latency' });
    expect(providerBound({ rps: 50, concurrency: 64, latencyS: 0.5, llmCallsPerClaim: 10, llmRoundsPerClaim: 5 }).claimsPerSecond).toBe(5);
  });
  it('reads the CPU time of a live process and nothing for a missing one', () => {
    expect(processCpuSeconds(process.pid)).toBeGreaterThan(0);
    expect(processCpuSeconds(2 ** 30)).toBeUndefined();
  });
});
