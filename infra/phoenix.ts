import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type InfraLog, type StopOutcome, findOnPath, isExecutable, livePid, run, silentLog, stopPidFile, tailFile, waitUntil } from './support';

/**
 * Arize Phoenix, an OpenTelemetry trace viewer with a UI and a REST API, from PyPI: the receiver
 * the tracing test sends to and the README's screenshot shows. It takes OTLP/HTTP (protobuf) at
 * `<url>/v1/traces`. Installed into <dataDir>/phoenix/venv (about two minutes), started on demand.
 */
export const PHOENIX_VERSION = '20.26.1';
export const PHOENIX_DEFAULT_PORT = 6006;
const START_TIMEOUT_MS = 180_000;

export interface PhoenixPaths {
  baseDir: string;
  venvDir: string;
  executable: string;
  /** Written after a complete install: the pinned version, so a new pin reinstalls. */
  marker: string;
  workDir: string;
  logFile: string;
  pidFile: string;
}

export function phoenixPaths(dataDir: string): PhoenixPaths {
  const baseDir = path.join(dataDir, 'phoenix');
  const venvDir = path.join(baseDir, 'venv');
  return {
    baseDir,
    venvDir,
    executable: path.join(venvDir, 'bin', 'phoenix'),
    marker: path.join(venvDir, '.verity-phoenix'),
    workDir: path.join(baseDir, 'data'),
    logFile: path.join(baseDir, 'server.log'),
    pidFile: path.join(baseDir, 'server.pid'),
  };
}

/** The installed `phoenix` executable of the pinned version, or undefined. */
export function installedPhoenix(dataDir: string): string | undefined {
  const paths = phoenixPaths(dataDir);
  const version = fs.existsSync(paths.marker) ? fs.readFileSync(paths.marker, 'utf8').trim() : undefined;
  return version === PHOENIX_VERSION && isExecutable(paths.executable) ? paths.executable : undefined;
}

/** Installs arize-phoenix==PHOENIX_VERSION from PyPI into its own virtualenv (idempotent). */
export async function installPhoenix(dataDir: string, log: InfraLog = silentLog): Promise<string> {
  const installed = installedPhoenix(dataDir);
  if (installed) return installed;
  const python = findOnPath('python3') ?? findOnPath('python');
  if (!python) throw new Error('python3 is not on PATH: Phoenix is installed from PyPI into a virtualenv');
  const paths = phoenixPaths(dataDir);
  log(`phoenix: installing arize-phoenix==${PHOENIX_VERSION} from PyPI into ${paths.venvDir}`);
  await run(python, ['-m', 'venv', paths.venvDir]);
  await run(path.join(paths.venvDir, 'bin', 'pip'), ['install', '--disable-pip-version-check', '-q', `arize-phoenix==${PHOENIX_VERSION}`], { timeoutMs: 1_200_000 });
  fs.writeFileSync(paths.marker, `${PHOENIX_VERSION}\n`);
  return paths.executable;
}

/** True when a Phoenix server answers its health check at `url`. */
export async function phoenixAnswers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

export interface RunningPhoenix {
  /** The UI and REST API; OTLP/HTTP goes to `${url}/v1/traces` (set OTEL_EXPORTER_OTLP_ENDPOINT to `url`). */
  url: string;
  state: 'running' | 'started';
  pid?: number;
}

/** Uses the Phoenix answering on 127.0.0.1:`port`, or starts the installed one there (detached, it outlives this process). */
export async function ensurePhoenix(dataDir: string, port = PHOENIX_DEFAULT_PORT, log: InfraLog = silentLog): Promise<RunningPhoenix> {
  const url = `http://127.0.0.1:${port}`;
  if (await phoenixAnswers(url)) return { url, state: 'running' };
  const executable = installedPhoenix(dataDir);
  if (!executable) throw new Error(`Phoenix ${PHOENIX_VERSION} is not installed under ${phoenixPaths(dataDir).venvDir}; run \`npm run infra:traces -- install\``);
  const paths = phoenixPaths(dataDir);
  fs.mkdirSync(paths.workDir, { recursive: true });
  const logFd = fs.openSync(paths.logFile, 'a');
  log(`phoenix: starting ${executable} at ${url}`);
  const env = { ...process.env, PHOENIX_HOST: '127.0.0.1', PHOENIX_PORT: String(port), PHOENIX_GRPC_PORT: String(port + 1), PHOENIX_WORKING_DIR: paths.workDir };
  const child = spawn(executable, ['serve'], { detached: true, stdio: ['ignore', logFd, logFd], cwd: paths.baseDir, env });
  fs.closeSync(logFd);
  let exited = false;
  child.once('exit', () => (exited = true));
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${executable}; log: ${paths.logFile}`);
  fs.writeFileSync(paths.pidFile, `${child.pid}\n`);
  const up = await waitUntil(async () => exited || (await phoenixAnswers(url)), START_TIMEOUT_MS, 500);
  if (!up || exited) {
    if (!exited) child.kill('SIGTERM');
    fs.rmSync(paths.pidFile, { force: true });
    throw new Error(`Phoenix ${exited ? 'exited during startup' : `did not answer within ${START_TIMEOUT_MS / 1000}s`}; last lines of ${paths.logFile}:\n${tailFile(paths.logFile)}`);
  }
  return { url, state: 'started', pid: child.pid };
}

/** Stops the Phoenix server verity started (its pid file), if it runs. */
export function stopPhoenix(dataDir: string): Promise<StopOutcome> {
  return stopPidFile(phoenixPaths(dataDir).pidFile, 'phoenix', 15_000);
}

/** The pid of the Phoenix server verity started, when it is alive. */
export function phoenixPid(dataDir: string): number | undefined {
  return livePid(phoenixPaths(dataDir).pidFile);
}
