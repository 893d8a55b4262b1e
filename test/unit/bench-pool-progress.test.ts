import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pool } from '../../eval/bench/support/pool';

/** A stream that is not a terminal (a file, a pipe) and records what is written. */
function fileLike(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let written = '';
  stream.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return { stream, text: () => written };
}

describe('pool with progress', () => {
  it('reports done / total and counts a work that throws as failed, rejecting as before', async () => {
    const { stream, text } = fileLike();
    const seen: number[] = [];
    const run = pool(
      [1, 2, 3, 4],
      1,
      async (item) => {
        seen.push(item);
        if (item === 3) throw new Error('item 3 broke');
      },
      { progress: { label: 'bench test', unit: 'claims', intervalMs: 0, stream } },
    );
    await expect(run).rejects.toThrow('item 3 broke');
    expect(seen).toEqual([1, 2, 3]);
    const lines = text().trim().split('\n');
    expect(lines[0]).toMatch(/^bench test: 0\/4 claims \(0%\).* 0 failed/);
    expect(lines).toContainEqual(expect.stringMatching(/^bench test: 2\/4 claims \(50%\).* 0 failed/));
    expect(lines.at(-1)).toMatch(/^bench test: 3\/4 claims \(75%\).* 1 failed/);
  });

  it('ends at total when every item succeeds, with one line at start and one at the end within the interval', async () => {
    const { stream, text } = fileLike();
    await pool(['a', 'b', 'c'], 2, async () => {}, { progress: { label: 'bench ok', unit: 'claims', intervalMs: 60_000, stream } });
    const lines = text().trim().split('\n');
    expect(lines[0]).toMatch(/^bench ok: 0\/3 claims/);
    expect(lines.at(-1)).toMatch(/^bench ok: 3\/3 claims \(100%\).* 0 failed/);
    expect(lines).toHaveLength(2);
  });
});
