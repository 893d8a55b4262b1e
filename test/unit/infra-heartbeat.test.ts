import { describe, expect, it } from 'vitest';
import { withHeartbeat } from '../../infra/heartbeat';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withHeartbeat', () => {
  it('says the step is still running at the interval while it runs, and stops when it settles', async () => {
    const lines: string[] = [];
    const result = await withHeartbeat('pip install x', (line) => lines.push(line), () => sleep(260).then(() => 'done'), 100);
    expect(result).toBe('done');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(lines[0]).toMatch(/^pip install x: still running \(.+\)$/);
    const afterSettled = lines.length;
    await sleep(250);
    expect(lines).toHaveLength(afterSettled);
  });

  it('stops on a failure and passes the error on', async () => {
    const lines: string[] = [];
    await expect(withHeartbeat('pip download y', (line) => lines.push(line), () => sleep(150).then(() => Promise.reject(new Error('no wheel'))), 100)).rejects.toThrow('no wheel');
    const afterFailed = lines.length;
    await sleep(250);
    expect(lines).toHaveLength(afterFailed);
  });
});
