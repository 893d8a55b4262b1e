import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfigFile } from '../../src/config/config';
import { InputFileError, inputFileProblem, readInputFile } from '../../src/config/input-file';
import { loadPriceTable } from '../../src/llm/prices';
import { readEpisodesJsonl } from '../../src/methods/toe/training/episode-source';
import { readRunConfig } from '../../src/runs/read-run-config';
import { runCliInProcess } from '../support/cli-in-process';

/**
 * Every file a user names is checked (regular file, size) before it is read (issue 39): /dev/zero
 * as VERITY_PRICES_FILE, a sweep config or `toe train --episodes` grew the CLI to 16 GB.
 */
describe('files a user names are read only when regular and within their limit', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-input-file-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('refuses a device, a directory, a missing path and a file over the limit, each in one line with the limit', () => {
    expect(() => readInputFile('/dev/zero', 1024)).toThrow(new InputFileError('/dev/zero is not a regular file (a device, pipe or socket is never read)'));
    expect(() => readInputFile(tmp, 1024)).toThrow(`${tmp} is a directory, not a file`);
    expect(() => readInputFile(path.join(tmp, 'missing'), 1024)).toThrow(`${path.join(tmp, 'missing')} does not exist`);
    const big = path.join(tmp, 'big.json');
    fs.writeFileSync(big, 'x'.repeat(3 * 1024 * 1024));
    expect(() => readInputFile(big, 2 * 1024 * 1024)).toThrow(`${big} has 3 MiB; at most 2 MiB are read`);
    expect(inputFileProblem(big, 2 * 1024 * 1024)).toBe(`${big} has 3 MiB; at most 2 MiB are read`);
    expect(readInputFile(big, 4 * 1024 * 1024)).toHaveLength(3 * 1024 * 1024);
  });

  it('VERITY_PRICES_FILE, VERITY_CONFIG_FILE, a sweep config and toe episodes on /dev/zero are refused at once', () => {
    expect(() => loadPriceTable('/dev/zero')).toThrow('cannot read prices file /dev/zero: /dev/zero is not a regular file');
    expect(() => readConfigFile('/dev/zero')).toThrow('cannot read config file /dev/zero: /dev/zero is not a regular file');
    expect(() => readRunConfig('/dev/zero')).toThrow('cannot read sweep config: /dev/zero is not a regular file');
    expect(() => readEpisodesJsonl('/dev/zero')).toThrow('/dev/zero is not a regular file');
  });

  it('memory import /dev/zero says what it is, not "file not found"', async () => {
    const result = await runCliInProcess(['memory', 'import', '/dev/zero'], {});
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual(['verity: cannot import memory: /dev/zero is not a regular file (a device, pipe or socket is never read)']);
  });
});
