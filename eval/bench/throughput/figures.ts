import fs from 'node:fs';

/** The most events in any window of `windowMs` (times in ms, any order). */
export function peakInWindow(times: readonly number[], windowMs = 1_000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while (sorted[end]! - sorted[start]! >= windowMs) start += 1;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}

/**
 * The most claims per second the provider and the latency allow: at most `rps` LLM calls per
 * second, and `concurrency` claims in flight, each lasting at least `rounds` sequential calls.
 */
export function providerBound(input: { rps: number; concurrency: number; latencyS: number; llmCallsPerClaim: number; llmRoundsPerClaim: number }): {
  claimsPerSecond: number;
  binds: 'rate' | 'latency';
} {
  const byRate = input.rps / Math.max(input.llmCallsPerClaim, 1e-9);
  const byLatency = input.concurrency / (Math.max(input.llmRoundsPerClaim, 1) * input.latencyS);
  return byRate <= byLatency ? { claimsPerSecond: byRate, binds: 'rate' } : { claimsPerSecond: byLatency, binds: 'latency' };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; undefined when unreadable. */
export function processCpuSeconds(pid: number, ticksPerSecond = 100): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) this process has used so far. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));
