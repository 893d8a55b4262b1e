import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PHOENIX_VERSION, installedPhoenix, phoenixAnswers, phoenixPaths } from '../../infra/phoenix';
import { freeLoopbackPort } from '../../infra/support';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-phoenix-'));
  dirs.push(dir);
  return dir;
}

function fakeInstall(dir: string, version: string): string {
  const paths = phoenixPaths(dir);
  fs.mkdirSync(path.dirname(paths.executable), { recursive: true });
  fs.writeFileSync(paths.executable, '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(paths.marker, `${version}\n`);
  return paths.executable;
}

describe('Phoenix install state', () => {
  it('counts as installed only with the executable and the marker of the pinned version', () => {
    const none = dataDir();
    expect(installedPhoenix(none)).toBeUndefined();
    const stale = dataDir();
    fakeInstall(stale, '1.0.0');
    expect(installedPhoenix(stale)).toBeUndefined();
    const current = dataDir();
    expect(installedPhoenix(current)).toBeUndefined();
    expect(installedPhoenix((fakeInstall(current, PHOENIX_VERSION), current))).toBe(phoenixPaths(current).executable);
  });

  it('does not take a closed port for a running Phoenix', async () => {
    expect(await phoenixAnswers(`http://127.0.0.1:${await freeLoopbackPort()}`)).toBe(false);
  });
});
