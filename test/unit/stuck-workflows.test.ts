import { describe, expect, it } from 'vitest';
import { describeStuck, stuckOf, stuckReason } from '../../src/client/stuck-workflows';
import { formatStuck } from '../../src/cli/sweep-watch';

const now = new Date('2026-11-28T21:00:00Z');
const since = new Date('2026-11-28T20:48:00Z');
const nondeterminism = { kind: 'failed' as const, cause: 'non deterministic error', message: '[TMPRL1100] Nondeterminism error: Missing associated machine for LocalActivity(3)\nstack…' };

describe('stuck workflow tasks', () => {
  it('a recorded failure is stuck from the second attempt; a timeout (a killed worker) only from the third', () => {
    expect(stuckOf('w', { attempt: 1, originalScheduledTime: since }, nondeterminism, now)).toBeUndefined();
    expect(stuckOf('w', { attempt: 2, originalScheduledTime: since }, nondeterminism, now)).toMatchObject({ attempt: 2, failed: true, since });
    expect(stuckOf('w', { attempt: 2, originalScheduledTime: since }, { kind: 'timed-out' }, now)).toBeUndefined();
    expect(stuckOf('w', { attempt: 3, originalScheduledTime: since }, { kind: 'timed-out' }, now)).toMatchObject({ failed: false, cause: 'workflow task timed out' });
  });

  it('names the cause in one line: the first line of the message, the attempt and for how long', () => {
    const stuck = stuckOf('verify/r/c/tool-mad/m/h/round-3', { attempt: 5, originalScheduledTime: since }, nondeterminism, now)!;
    expect(describeStuck(stuck, now)).toBe(
      'verify/r/c/tool-mad/m/h/round-3: workflow task failed (non deterministic error): [TMPRL1100] Nondeterminism error: Missing associated machine for LocalActivity(3) (attempt 5, for 12 min)',
    );
    expect(stuckReason('verify/r/c/tool-mad/m/h', stuck, now)).toMatch(/^stuck in round-3: workflow task failed \(non deterministic error\): \[TMPRL1100\]/);
    expect(stuckReason('verify/r/c/tool-mad/m/h/round-3', stuck, now)).toMatch(/^stuck: workflow task failed/);
  });

  it('sweep status lists at most ten and prints nothing when none is stuck', () => {
    expect(formatStuck([], now)).toBe('');
    const many = Array.from({ length: 12 }, (_, i) => stuckOf(`w${i}`, { attempt: 2, originalScheduledTime: since }, nondeterminism, now)!);
    const lines = formatStuck(many, now).trimEnd().split('\n');
    expect(lines[0]).toBe('  stuck: 12 workflows whose workflow task keeps failing (no progress until fixed):');
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toContain('and 2 more');
  });
});
