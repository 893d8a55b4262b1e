import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CommandProgress, progressText } from '../../src/cli/progress';
import { sweepProgressUpdate } from '../../src/cli/sweep-progress';
import type { SweepProgress } from '../../src/shared/sweep';

/** A stream that records what is written, as a file (not a terminal) or as a terminal. */
function recorder(isTTY: boolean): { stream: PassThrough & { isTTY?: boolean; columns?: number }; text: () => string } {
  const stream = Object.assign(new PassThrough(), isTTY ? { isTTY: true, columns: 120 } : {});
  let written = '';
  stream.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return { stream, text: () => written };
}

describe('progress of long commands', () => {
  it('formats done / total, rate, ETA in human units, failures and cost so far', () => {
    expect(progressText({ done: 12, total: 40, failed: 1, costUsd: 0.01234, detail: '3 running' }, { perMs: 12 / 180_000, etaMs: 420_000 }, { unit: 'verifications' })).toBe(
      '12/40 verifications (30%) · 4.0/min · ETA 7 min · 1 failed · $0.0123 so far · 3 running',
    );
    expect(progressText({ done: 2_500_000, total: 10_000_000, phase: 'reading' }, { perMs: 2500, etaMs: 3000 }, { unit: 'MB', scale: 1e6 })).toBe(
      'reading: 2.5/10.0 MB (25%) · 2.5/s · ETA 3 s',
    );
    expect(progressText({ done: 0, total: 10 }, { perMs: undefined, etaMs: undefined }, { unit: 'claims' })).toBe('0/10 claims (0%) · rate – · ETA –');
  });

  it('writes a line at most every interval when the stream is not a terminal, and the last state at the end', async () => {
    const { stream, text } = recorder(false);
    let now = 0;
    const progress = new CommandProgress({ label: 'sweep r1', unit: 'verifications', intervalMs: 10_000, stream, now: () => now });
    progress.update({ done: 0, total: 40, failed: 0, costUsd: 0 });
    for (let done = 1; done <= 9; done += 1) {
      now += 1_000;
      progress.update({ done, total: 40, failed: 0, costUsd: done * 0.001 });
    }
    now += 1_000; // 10 s after the first line
    progress.update({ done: 10, total: 40, failed: 1, costUsd: 0.01 });
    now += 5_000;
    progress.update({ done: 40, total: 40, failed: 1, costUsd: 0.04 });
    progress.finish();
    progress.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(text().split('\n').filter(Boolean)).toEqual([
      'sweep r1: 0/40 verifications (0%) · rate – · ETA – · 0 failed · $0.0000 so far',
      // 10 done in 10 s: 1/s, 30 left.
      'sweep r1: 10/40 verifications (25%) · 1.0/s · ETA 30 s · 1 failed · $0.0100 so far',
      'sweep r1: 40/40 verifications (100%) · 2.7/s · ETA 0 s · 1 failed · $0.0400 so far',
    ]);
  });

  it('writes a line when a phase begins, and measures its rate from there', async () => {
    const { stream, text } = recorder(false);
    let now = 0;
    const progress = new CommandProgress({ label: 'check d', unit: 'claims', intervalMs: 60_000, stream, now: () => now });
    progress.update({ phase: 'extracting claims', unit: 'sentences', done: 0, total: 8 });
    now += 4_000;
    progress.update({ phase: 'extracting claims', unit: 'sentences', done: 8, total: 8 });
    progress.update({ phase: 'verifying', done: 0, total: 6 });
    now += 3_000;
    progress.update({ phase: 'verifying', done: 3, total: 6 });
    progress.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(text().split('\n').filter(Boolean)).toEqual([
      'check d: extracting claims: 0/8 sentences (0%) · rate – · ETA –',
      'check d: verifying: 0/6 claims (0%) · rate – · ETA –',
      'check d: verifying: 3/6 claims (50%) · 1.0/s · ETA 3 s',
    ]);
  });

  it('draws a bar on a terminal instead of lines', async () => {
    const { stream, text } = recorder(true);
    let now = 0;
    const progress = new CommandProgress({ label: 'ingest corpus.jsonl', unit: 'MB', scale: 1e6, intervalMs: 10_000, stream, now: () => now });
    progress.update({ done: 0, total: 4e6, failed: 0 });
    now += 2_000;
    progress.update({ done: 1e6, total: 4e6, failed: 2 });
    progress.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(text()).toContain('ingest corpus.jsonl ');
    expect(text()).toContain('1.0/4.0 MB (25%) · 30.0/min · ETA 6 s · 2 failed');
    expect(text()).toContain('\u001b['); // drawn in place, with cursor movements
    expect(text()).not.toContain('ingest corpus.jsonl: ');
  });

  it("shows a sweep's finished verifications, failures, cost, running and a status other than running", () => {
    const progress = { runId: 'r', status: 'paused', total: 20, done: 8, failed: 2, reused: 0, running: 0, tokens: 100, costUsd: 0.5 } as unknown as SweepProgress;
    expect(sweepProgressUpdate(progress)).toEqual({ done: 10, total: 20, failed: 2, costUsd: 0.5, detail: '0 running, paused' });
  });
});
