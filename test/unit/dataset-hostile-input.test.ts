import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset, MAX_RECORD_LINE_BYTES } from '../../src/datasets';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-dataset-hostile-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const target = path.join(tmp, name);
  fs.writeFileSync(target, content);
  return target;
}

const line = (id: string, claim = `Claim ${id} is about the Eiffel Tower.`) => JSON.stringify({ id, dataset: 'demo', claim, label: 'SUPPORTED', label_norm: 'SUPPORTED' });

describe('dataset files a hostile or careless user may hand over', () => {
  it('reads the first record of a file that starts with a UTF-8 byte-order mark, in JSONL and JSON arrays', async () => {
    const jsonl = file('bom.jsonl', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${line('a')}\r\n${line('b')}\r\n`)]));
    const { claims, stats } = await loadDataset(jsonl);
    expect(claims.map((claim) => claim.id)).toEqual(['a', 'b']);
    expect(stats.malformedCount).toBe(0);

    const hover = file('bom.json', `\uFEFF${JSON.stringify([{ uid: 'h1', claim: 'A claim.', label: 'SUPPORTED', supporting_facts: [['Paris', 0]] }])}`);
    expect((await loadDataset(hover, { format: 'hover' })).claims.map((claim) => claim.id)).toHaveLength(1);
  });

  it('skips a line that is not UTF-8 with a reason instead of reading it as U+FFFD', async () => {
    const latin1 = Buffer.from(line('café', 'Le café est à Paris.'), 'latin1');
    const { claims, stats } = await loadDataset(file('latin1.jsonl', Buffer.concat([latin1, Buffer.from(`\n${line('ok')}\n`)])), { format: 'verity' });
    expect(claims.map((claim) => claim.id)).toEqual(['ok']);
    expect(stats.malformed).toEqual([{ position: { line: 1 }, reason: 'not valid UTF-8 (convert the file to UTF-8)' }]);
  });

  it('skips a line over the line limit without holding it, and counts the lines after it right', async () => {
    const huge = `{"id":"huge","claim":"${'x'.repeat(MAX_RECORD_LINE_BYTES)}"}`;
    const { claims, stats } = await loadDataset(file('huge.jsonl', `${line('a')}\n${huge}\n${line('b')}\n`), { format: 'verity' });
    expect(claims.map((claim) => claim.id)).toEqual(['a', 'b']);
    expect(stats.malformed).toEqual([{ position: { line: 2 }, reason: 'line is longer than 1 MiB' }]);
  });

  it('refuses what is not a regular file (/dev/zero, a directory) at once', async () => {
    await expect(loadDataset('/dev/zero', { format: 'verity' })).rejects.toThrow('dataset file: /dev/zero is not a regular file');
    await expect(loadDataset(tmp, { format: 'verity' })).rejects.toThrow(`dataset file: ${tmp} is a directory, not a file`);
  });

  it('skips claims over 5,000 characters, ids over 2,000 and ids with a lone surrogate, naming the limit', async () => {
    const lines = [line('long', 'word '.repeat(1001)), line('x'.repeat(2001)), '{"id":"\\ud800","dataset":"demo","claim":"A claim.","label":"SUPPORTED","label_norm":"SUPPORTED"}', line('fine', '猫'.repeat(5000))];
    const { claims, stats } = await loadDataset(file('limits.jsonl', lines.join('\n')), { format: 'verity' });
    expect(claims.map((claim) => claim.id)).toEqual(['fine']);
    expect(stats.malformed.map((record) => record.reason)).toEqual([
      'claim: the claim has 5004 characters; at most 5000 are accepted (as by `verity verify`)',
      'id: a claim id has at most 2000 characters',
      'id: the claim id has a lone surrogate (no UTF-8 form)',
    ]);
  });
});
