import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { CommandProgress, type ProgressOptions } from '../src/cli/progress';

/** Progress lines for humans (the CLI sends them to stderr). */
export type InfraLog = (line: string) => void;

export const silentLog: InfraLog = () => undefined;

export interface HostPort {
  host: string;
  port: number;
}

/** Parses "host:port", "[::1]:port" or "host" (then `defaultPort`). */
export function parseHostPort(address: string, defaultPort: number): HostPort {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(address.trim());
  if (!match) throw new Error(`cannot parse address "${address}" (expected host:port)`);
  const host = match[1] ?? match[2] ?? '';
  const port = match[3] === undefined ? defaultPort : Number(match[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`invalid port in address "${address}"`);
  return { host, port };
}

/** Host and port of an http(s) URL, with the scheme's default port when none is given. */
export function hostPortOfUrl(url: string): HostPort {
  const parsed = new URL(url);
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
}

/** True when something accepts TCP connections on host:port. */
export function isPortOpen({ host, port }: HostPort, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns true; false when `timeoutMs` passed first. */
export async function waitUntil(probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs);
  }
}

export function elapsedMs(startedAt: number): number {
  return Date.now() - startedAt;
}

/** The last `lines` lines of a text file, or a note that it does not exist. */
export function tailFile(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return `(no log at ${file})`;
  }
}

const execFileAsync = promisify(execFile);

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell; rejects with its stderr on a non-zero exit. */
export async function run(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      timeout: options.timeoutMs ?? 600_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { stdout, stderr };
  } catch (err) {
    const e = err as Error & { stderr?: string; code?: string | number };
    const detail = (e.stderr ?? '').trim().split('\n').slice(-5).join(' | ') || e.message;
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed: ${detail}`);
  }
}

/** Absolute path of an executable found on PATH, if any. */
export function findOnPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** How a download shows its progress on stderr (a bar on a terminal, else a line at most every intervalMs). */
export interface DownloadProgress {
  label: string;
  intervalMs?: number;
  stream?: ProgressOptions['stream'];
}

/** First-use downloads are minutes long: a line every 15 s when stderr is not a terminal. */
const DOWNLOAD_PROGRESS_INTERVAL_MS = 15_000;

/** Downloads `url` to `dest` through a temporary file, so a broken download never looks cached. */
export async function download(url: string, dest: string, timeoutMs = 600_000, progress?: DownloadProgress): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const partial = `${dest}.partial`;
  const total = Number(response.headers.get('content-length') ?? 0) || 0;
  const bar = progress
    ? new CommandProgress({ label: progress.label, unit: 'MB', scale: 1e6, intervalMs: progress.intervalMs ?? DOWNLOAD_PROGRESS_INTERVAL_MS, stream: progress.stream })
    : undefined;
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      bar?.update({ done: received, total: Math.max(total, received) });
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), counter, fs.createWriteStream(partial));
  } finally {
    bar?.finish();
  }
  fs.renameSync(partial, dest);
}

/** The pid recorded in a pid file, when that process is still alive. */
export function livePid(pidFile: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when /proc shows that `pid` runs a command line containing `needle` (true where /proc is missing). */
export function processMatches(pid: number, needle: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
  } catch {
    return !fs.existsSync('/proc');
  }
}

export type StopOutcome = 'stopped' | 'not-running';

/**
 * Stops the process named by a pid file (SIGTERM, then SIGKILL after `graceMs`) and removes the
 * file. `needle` guards against a recycled pid belonging to some other program.
 */
export async function stopPidFile(pidFile: string, needle: string, graceMs = 30_000): Promise<StopOutcome> {
  const pid = livePid(pidFile);
  if (pid === undefined || !processMatches(pid, needle)) {
    fs.rmSync(pidFile, { force: true });
    return 'not-running';
  }
  process.kill(pid, 'SIGTERM');
  if (!(await waitUntil(async () => !isAlive(pid), graceMs))) {
    process.kill(pid, 'SIGKILL');
    await waitUntil(async () => !isAlive(pid), 5_000);
  }
  fs.rmSync(pidFile, { force: true });
  return 'stopped';
}

/** A port nothing listens on right now (the OS picks it). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
