import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { VerityConfig } from '../src/config/config';
import { LOCAL_CONTEXT_PER_SLOT, LOCAL_LLM_ENGINE, LOCAL_MODELS, type LocalModelName } from '../src/config/local-llm';
import { projectRoot } from '../src/project-root';
import { withFileLock } from './file-lock';
import { type LocalLlmPaths, ensureEngine, ensureWeights, localLlmPaths, modelFileOf } from './local-llm-install';
import { type InfraLog, type StopOutcome, elapsedMs, freeLoopbackPort, livePid, processMatches, silentLog, stopPidFile, tailFile, waitUntil } from './support';

export { localLlmPaths } from './local-llm-install';

const START_TIMEOUT_MS = 180_000;
/** Installing the engine and downloading the weights may take minutes; a second process waits for the first. */
const PROVISION_LOCK_TIMEOUT_MS = 30 * 60_000;
/** Marks the server's command line, so a recycled pid is never taken for it. */
const SERVER_SCRIPT = 'serve.py';

export function serverScriptPath(): string {
  return path.join(projectRoot(), 'infra', 'local-llm', SERVER_SCRIPT);
}

const serverStateSchema = z.object({
  baseUrl: z.string().url(),
  port: z.number().int().positive(),
  pid: z.number().int().positive(),
  model: z.string(),
  sha256: z.string(),
  slots: z.number().int().positive(),
  contextPerSlot: z.number().int().positive(),
  engine: z.string(),
});
export type LocalLlmServerState = z.infer<typeof serverStateSchema>;

export interface LocalLlmEnsureResult extends LocalLlmServerState {
  state: 'running' | 'started';
  durationMs: number;
}

export interface LocalLlmOptions {
  model: LocalModelName;
  slots: number;
  /** Also serve /v1/embeddings (mean-pooled hidden states of the chat model). */
  embeddings?: boolean;
}

export function localLlmOptionsOf(config: VerityConfig): LocalLlmOptions {
  if (!config.llm.local) throw new Error('the local LLM is not configured (VERITY_LLM=local)');
  return { model: config.llm.local.model, slots: config.llm.local.slots, embeddings: true };
}

/**
 * The local model server answering at a loopback port: the running one when it serves the
 * configured model and slots, else installed (engine and weights, once) and started detached.
 * Holds a lock throughout, so concurrent callers get one server.
 */
export async function ensureLocalLlm(dataDir: string, options: LocalLlmOptions, log: InfraLog = silentLog): Promise<LocalLlmEnsureResult> {
  const startedAt = Date.now();
  const paths = localLlmPaths(dataDir);
  return withFileLock(
    paths.lockFile,
    async () => {
      const running = await runningServer(paths);
      if (running) {
        assertServes(running, options);
        log(`local-llm: using the server at ${running.baseUrl} (pid ${running.pid}, ${running.model}, ${running.slots} slots)`);
        return { ...running, state: 'running' as const, durationMs: elapsedMs(startedAt) };
      }
      const spec = LOCAL_MODELS[options.model];
      const python = await ensureEngine(paths, log);
      const modelFile = await ensureWeights(paths, spec, python, log);
      const state = await startServer(paths, python, modelFile, options, log);
      return { ...state, state: 'started' as const, durationMs: elapsedMs(startedAt) };
    },
    { timeoutMs: PROVISION_LOCK_TIMEOUT_MS, what: 'another process provisioning the local LLM' },
  );
}

function assertServes(running: LocalLlmServerState, options: LocalLlmOptions): void {
  const spec = LOCAL_MODELS[options.model];
  if (running.sha256 === spec.sha256 && running.slots === options.slots) return;
  throw new Error(
    `the local LLM server at ${running.baseUrl} (pid ${running.pid}) serves ${running.model} with ${running.slots} slots, ` +
      `not ${options.model} with ${options.slots}; stop it first with \`verity infra down --only llm\``,
  );
}

/** The recorded server, when its process is alive and answers /health. */
export async function runningServer(paths: LocalLlmPaths): Promise<LocalLlmServerState | undefined> {
  const state = readState(paths);
  if (!state) return undefined;
  const pid = livePid(paths.pidFile);
  if (pid !== state.pid || !processMatches(pid, SERVER_SCRIPT)) return undefined;
  return (await healthy(state.baseUrl)) ? state : undefined;
}

function readState(paths: LocalLlmPaths): LocalLlmServerState | undefined {
  try {
    const parsed = serverStateSchema.safeParse(JSON.parse(fs.readFileSync(paths.stateFile, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The server's root URL from its OpenAI base URL (`…/v1`). */
function rootOf(baseUrl: string): string {
  return baseUrl.replace(/\/v1\/?$/, '');
}

async function healthy(baseUrl: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const response = await fetch(`${rootOf(baseUrl)}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok;
  } catch {
    return false;
  }
}


export function serverArgs(modelFile: string, options: LocalLlmOptions & { port: number; threads: number }): string[] {
  return [
    serverScriptPath(),
    '--model',
    modelFile,
    '--alias',
    options.model,
    '--port',
    String(options.port),
    '--slots',
    String(options.slots),
    '--ctx-per-slot',
    String(LOCAL_CONTEXT_PER_SLOT),
    '--threads',
    String(options.threads),
    ...(options.embeddings ? ['--embedding'] : []),
  ];
}

/** Starts serve.py detached (it outlives this process), records its pid and endpoint, waits for /health. */
export async function startServer(
  paths: LocalLlmPaths,
  python: string,
  modelFile: string,
  options: LocalLlmOptions,
  log: InfraLog,
): Promise<LocalLlmServerState> {
  const port = await freeLoopbackPort();
  const threads = os.availableParallelism();
  const spec = LOCAL_MODELS[options.model];
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  fs.mkdirSync(paths.baseDir, { recursive: true });
  const logFd = fs.openSync(paths.logFile, 'a');
  log(`local-llm: starting ${spec.description} ${spec.quantisation} on ${LOCAL_LLM_ENGINE.name} at ${baseUrl} (${options.slots} slots, ${threads} threads)`);
  const child = spawn(python, serverArgs(modelFile, { ...options, port, threads }), { detached: true, stdio: ['ignore', logFd, logFd], cwd: paths.baseDir });
  fs.closeSync(logFd);
  let exited = false;
  child.once('exit', () => (exited = true));
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${python}; log: ${paths.logFile}`);
  fs.writeFileSync(paths.pidFile, `${child.pid}\n`);
  const up = await waitUntil(async () => exited || (await healthy(baseUrl, 1_000)), START_TIMEOUT_MS, 500);
  if (!up || exited) {
    if (!exited) child.kill('SIGTERM');
    fs.rmSync(paths.pidFile, { force: true });
    const why = exited ? 'exited during startup' : `did not answer /health within ${START_TIMEOUT_MS / 1000}s`;
    throw new Error(`the local LLM server ${why}; last lines of ${paths.logFile}:\n${tailFile(paths.logFile)}`);
  }
  const state: LocalLlmServerState = {
    baseUrl,
    port,
    pid: child.pid,
    model: options.model,
    sha256: spec.sha256,
    slots: options.slots,
    contextPerSlot: LOCAL_CONTEXT_PER_SLOT,
    engine: `${LOCAL_LLM_ENGINE.package}==${LOCAL_LLM_ENGINE.version}`,
  };
  fs.writeFileSync(paths.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

/** Stops the server verity started (by its pid file); nothing else. */
export async function stopLocalLlm(dataDir: string): Promise<StopOutcome> {
  const paths = localLlmPaths(dataDir);
  const outcome = await stopPidFile(paths.pidFile, SERVER_SCRIPT, 15_000);
  fs.rmSync(paths.stateFile, { force: true });
  return outcome;
}

export interface LocalLlmStatus {
  /** The configured model (VERITY_LOCAL_MODEL), when VERITY_LLM=local. */
  configuredModel?: string;
  engineInstalled: boolean;
  /** Assembled and checked model files. */
  modelsInstalled: string[];
  server?: LocalLlmServerState;
}

export async function localLlmStatus(config: VerityConfig): Promise<LocalLlmStatus> {
  const paths = localLlmPaths(config.dataDir);
  const modelsInstalled = Object.values(LOCAL_MODELS)
    .filter((spec) => fs.existsSync(`${modelFileOf(paths, spec)}.verified`))
    .map((spec) => spec.name);
  return {
    ...(config.llm.local ? { configuredModel: config.llm.local.model } : {}),
    engineInstalled: fs.existsSync(paths.engineMarker),
    modelsInstalled,
    server: await runningServer(paths),
  };
}
