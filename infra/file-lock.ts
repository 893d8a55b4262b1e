import fs from 'node:fs';
import path from 'node:path';
import { isAlive, sleep } from './support';

/**
 * Runs `body` while holding an exclusive lock file (created with O_EXCL, holding our pid), so two
 * processes never provision or start the same thing at once. A lock whose holder died is taken over.
 */
export async function withFileLock<T>(lockFile: string, body: () => Promise<T>, options: { timeoutMs: number; what: string }): Promise<T> {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (tryAcquire(lockFile)) break;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${Math.round(options.timeoutMs / 1000)}s waiting for ${options.what} (lock ${lockFile} held by pid ${holderOf(lockFile) ?? '?'})`);
    }
    await sleep(250);
  }
  try {
    return await body();
  } finally {
    if (holderOf(lockFile) === process.pid) fs.rmSync(lockFile, { force: true });
  }
}

function tryAcquire(lockFile: string): boolean {
  try {
    const fd = fs.openSync(lockFile, 'wx');
    fs.writeSync(fd, `${process.pid}\n`);
    fs.closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = holderOf(lockFile);
  // An empty file is a holder between open and write: wait for it. A dead holder's lock is stale.
  if (holder !== undefined && !isAlive(holder) && holderOf(lockFile) === holder) fs.rmSync(lockFile, { force: true });
  return false;
}

function holderOf(lockFile: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
