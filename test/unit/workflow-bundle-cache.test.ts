import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readOrBuildBundle } from '../../src/worker/workflow-bundle';

describe('workflow bundle cache directory', () => {
  const directories: string[] = [];
  const directory = () => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-cache-'));
    directories.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of directories.splice(0)) fs.rmSync(made, { recursive: true, force: true });
  });

  it('builds a key once and serves it to later readers from the directory', async () => {
    const cache = directory();
    let builds = 0;
    const build = async () => `code ${++builds}`;
    expect(await readOrBuildBundle(cache, 'workflows/index.ts\ninterceptors.ts', build)).toBe('code 1');
    expect(await readOrBuildBundle(cache, 'workflows/index.ts\ninterceptors.ts', build)).toBe('code 1');
    expect(builds).toBe(1);
    // Another set of interceptor modules is another bundle.
    expect(await readOrBuildBundle(cache, 'workflows/index.ts\ninterceptors.ts\notel.ts', build)).toBe('code 2');
    expect(fs.readdirSync(cache).filter((file) => file.endsWith('.js'))).toHaveLength(2);
  });

  it('leaves no partial file behind and creates the directory when missing', async () => {
    const cache = path.join(directory(), 'nested');
    await readOrBuildBundle(cache, 'key', async () => 'code');
    expect(fs.readdirSync(cache)).toEqual([expect.stringMatching(/^[0-9a-f]{16}\.js$/)]);
  });

  it('stores nothing when the build fails, so the next reader builds again', async () => {
    const cache = directory();
    await expect(readOrBuildBundle(cache, 'key', () => Promise.reject(new Error('webpack failed')))).rejects.toThrow('webpack failed');
    expect(fs.readdirSync(cache)).toEqual([]);
    expect(await readOrBuildBundle(cache, 'key', async () => 'code')).toBe('code');
  });
});
