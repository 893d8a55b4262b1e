/**
 * The chaos proof (`npm run bench:chaos`): the 600-claim dev sweep (eval/sweeps/dev-600.yaml) runs
 * on a worker process that is SIGKILLed three times, while the Temporal dev server is restarted
 * once and Elasticsearch is unreachable for 65 s (through a TCP proxy on 127.0.0.1:8711, so the
 * shared node is untouched); the LLM simulator is a process of its own that fails 20% of requests
 * (10% 429, 10% 500) and logs every request. Afterwards it checks that every (claim, method) has
 * exactly one verdict, nothing failed, and every paid LLM request sent twice was in flight at a
 * kill or the restart. Exits non-zero when an invariant fails.
 *
 * It uses a Temporal dev server of its own (port 7243, UI 8243, data in .verity/chaos), so
 * restarting it disturbs nobody else, and fresh index prefix, task queue and run id.
 *
 * With `--config eval/sweeps/chaos-every-method.yaml` every method is in the mix (Tool-MAD rounds and
 * ToE nodes as child workflows, local activities everywhere): the proof of issue 42.
 *
 * Usage: npm run bench:chaos -- [--config <sweep yaml>] [--es-outage-s <seconds>] [--temporal-port <port>] [--proxy-port <port>] [--keep]
 *   --config          the sweep to run (default eval/sweeps/dev-600.yaml); every dataset needs a `sample`
 *   --es-outage-s     how long Elasticsearch stays unreachable (default 65; at least 60 counts as a pass)
 *   --temporal-port   the chaos Temporal dev server's port; its UI listens on the next port (default 7243)
 *   --proxy-port      the Elasticsearch proxy's port (default 8711)
 *   --keep            keep the Temporal dev server and the indices afterwards
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureInfra } from '../../infra';
import { ensureElasticsearch } from '../../infra/elasticsearch';
import { stopPidFile } from '../../infra/support';
import { ensureTemporal, temporalPaths } from '../../infra/temporal';
import { CommandProgress } from '../../src/cli/progress';
import { connectTemporal } from '../../src/client/temporal';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { projectRoot } from '../../src/project-root';
import type { Disruption } from './request-analysis';
import { checkLines, countVerdicts, deleteIndicesOf, endedStatus, prepareChaosRun, readSweepOutcome, runProof, startSimulatorProcess } from './sweep-outcome';
import { startSweep } from '../../src/client/start-sweep';
import { startTcpProxy } from './tcp-proxy';
import { exitWithUsageIfAsked } from '../bench/support/usage';

const ROOT = projectRoot();
const KILL_AT = [0.15, 0.4, 0.75];
const RESTART_TEMPORAL_AT = 0.55;
const SIM_LATENCY_MS = 250;
const ES_OUTAGE_AT = 0.25;
const DEFAULT_ES_OUTAGE_S = 65;
const DEFAULT_ES_PROXY_PORT = 8711;
const DEFAULT_TEMPORAL_PORT = 7243;
/** 20% of LLM requests fail: 10% with 429, 10% with 500. */
const SIM_FAULTS = '429:0.1,500:0.1';
const TIMEOUT_MS = 30 * 60_000;

interface ChaosOptions {
  config: string;
  esOutageMs: number;
  temporalPort: number;
  proxyPort: number;
  keep: boolean;
}

/** Parses the command line (unknown flags are refused). */
function parseChaosArgs(argv: readonly string[]): ChaosOptions {
  const options: ChaosOptions = { config: path.join(ROOT, 'eval', 'sweeps', 'dev-600.yaml'), esOutageMs: DEFAULT_ES_OUTAGE_S * 1000, temporalPort: DEFAULT_TEMPORAL_PORT, proxyPort: DEFAULT_ES_PROXY_PORT, keep: false };
  const number = (flag: string, value: string | undefined) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`${flag} expects a whole number above 0, got ${value ?? 'nothing'}`);
    return parsed;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--keep') options.keep = true;
    else if (flag === '--config') options.config = path.resolve(argv[++i] ?? '');
    else if (flag === '--es-outage-s') options.esOutageMs = number(flag, argv[++i]) * 1000;
    else if (flag === '--temporal-port') options.temporalPort = number(flag, argv[++i]);
    else if (flag === '--proxy-port') options.proxyPort = number(flag, argv[++i]);
    else throw new Error(`unknown option ${flag} (see --help)`);
  }
  return options;
}

const say = (line: string) => process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<number> {
  exitWithUsageIfAsked(__filename);
  const { config: sweepFile, esOutageMs, temporalPort, proxyPort, keep } = parseChaosArgs(process.argv.slice(2));
  const started = Date.now();
  const stamp = Date.now().toString(36);
  const dataDir = path.join(ROOT, '.verity', 'chaos');
  const workDir = path.join(dataDir, stamp);
  fs.mkdirSync(workDir, { recursive: true });
  const requestLog = path.join(workDir, 'sim-requests.jsonl');
  const cliPath = process.env.TEMPORAL_CLI_PATH ?? [path.join(ROOT, '.verity', 'bin', 'temporal')].find((file) => fs.existsSync(file));

  const { process: simulator, url: simulatorUrl } = await startSimulatorProcess(ROOT, requestLog, SIM_LATENCY_MS, SIM_FAULTS);
  say(`simulator process ${simulator.pid} at ${simulatorUrl}, request log ${path.relative(ROOT, requestLog)}`);

  // The proxy forwards to the shared node: start it first when nothing answers there (a fresh machine).
  const sharedEs = new URL((await ensureElasticsearch(loadConfig(process.env), (line) => say(line))).url);
  const esProxy = await startTcpProxy(proxyPort, { host: sharedEs.hostname, port: Number(sharedEs.port || 9200) });
  say(`Elasticsearch proxy ${esProxy.url} → ${sharedEs.origin}`);
  const env: Record<string, string> = {
    ES_URL: esProxy.url,
    VERITY_DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    TEMPORAL_UI_URL: `http://127.0.0.1:${temporalPort === DEFAULT_TEMPORAL_PORT ? 8243 : temporalPort + 1}`,
    ...(cliPath ? { TEMPORAL_CLI_PATH: cliPath } : {}),
    ES_INDEX_PREFIX: `chaos-${stamp}`,
    TEMPORAL_TASK_QUEUE: `chaos-${stamp}`,
    OPENAI_BASE_URL: simulatorUrl,
    OPENAI_API_KEY: 'sk-chaos',
    VERITY_LOG_LEVEL: 'error',
    VERITY_LLM_RPS: '50',
    VERITY_LLM_CONCURRENCY: '16',
  };
  const config = loadConfig({ ...process.env, ...env });
  await ensureInfra(config, { log: (line) => say(line) });

  // The bench itself reads Elasticsearch directly, so that it can count verdicts during the outage.
  const es = createEsClient({ ...config.elasticsearch, url: sharedEs.origin, requestTimeoutMs: 120_000 });
  const prefix = config.elasticsearch.indexPrefix;
  const { run, input, total } = await prepareChaosRun(es, config, sweepFile, stamp, say);

  // The worker: one real process (not the tsx wrapper), so that SIGKILL kills it.
  let worker: ChildProcess | undefined;
  let workerStarts = 0;
  const workerLog = fs.openSync(path.join(workDir, 'worker.log'), 'a');
  const spawnWorker = () => {
    workerStarts += 1;
    worker = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'worker', 'main.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', workerLog, workerLog],
    });
    say(`worker process ${worker.pid} started (#${workerStarts})`);
  };
  spawnWorker();

  const connect = () => connectTemporal(config);
  let client = await connect();
  const { handle } = await startSweep(client, config.temporal.taskQueue, input);
  say(`started ${handle.workflowId} (UI ${config.temporal.uiUrl})`);

  const verdictCount = () => countVerdicts(es, prefix, run.run);
  const kills: Disruption[] = [];
  const restarts: Disruption[] = [];
  const pendingKills = [...KILL_AT];
  let restartDone = false;
  let finalStatus = '';
  const esOutages: Disruption[] = [];
  let esOutageEnded: Promise<void> | undefined;

  // The proof runs for minutes: verdicts so far on stderr, a line at most every VERITY_PROGRESS_INTERVAL_S when not a terminal.
  const progress = new CommandProgress({ label: 'chaos sweep', unit: 'verdicts', intervalMs: config.progressIntervalMs });
  while (Date.now() - started < TIMEOUT_MS + esOutageMs) {
    const done = await verdictCount();
    progress.update({ done, total, detail: `${kills.length} worker kills, ${restarts.length} Temporal restarts, ${esOutages.length} ES outages so far` });
    if (pendingKills.length > 0 && done >= pendingKills[0]! * total) {
      pendingKills.shift();
      const victim = worker!;
      const exited = new Promise((resolve) => victim.once('exit', resolve));
      const at = new Date().toISOString();
      victim.kill('SIGKILL');
      await exited;
      kills.push({ what: `SIGKILL worker ${victim.pid} at ${done} verdicts`, from: at, to: at });
      say(`killed worker ${victim.pid} with SIGKILL at ${done}/${total} verdicts`);
      await sleep(2_000);
      spawnWorker();
    } else if (!restartDone && done >= RESTART_TEMPORAL_AT * total) {
      restartDone = true;
      const from = new Date().toISOString();
      const stopped = await stopPidFile(temporalPaths(config.dataDir).pidFile, 'temporal');
      say(`Temporal dev server: ${stopped} at ${done}/${total} verdicts; starting it again`);
      await client.connection.close().catch(() => undefined);
      await sleep(3_000);
      await ensureTemporal(config);
      restarts.push({ what: 'Temporal dev server restart', from, to: new Date().toISOString() });
      client = await connect();
      say('Temporal dev server is back (same SQLite file)');
    }
    if (!esOutageEnded && done >= ES_OUTAGE_AT * total) {
      const from = new Date().toISOString();
      await esProxy.down();
      say(`Elasticsearch unreachable for the worker from now, at ${done}/${total} verdicts, for ${esOutageMs / 1000} s`);
      esOutageEnded = sleep(esOutageMs).then(async () => {
        await esProxy.up();
        esOutages.push({ what: 'Elasticsearch outage', from, to: new Date().toISOString() });
        say('Elasticsearch reachable again');
      });
    }
    if (worker && worker.exitCode !== null) {
      say(`worker ${worker.pid} exited on its own (${worker.exitCode}); starting another`);
      spawnWorker();
    }
    const ended = await endedStatus(client, handle.workflowId);
    if (ended) {
      finalStatus = ended;
      break;
    }
    await sleep(500);
  }

  progress.finish();
  await esOutageEnded;
  await esProxy.close();
  const result = finalStatus === 'COMPLETED' ? await client.workflow.getHandle(handle.workflowId).result() : undefined;
  worker?.kill('SIGTERM');
  simulator.kill('SIGTERM');
  await sleep(1_000);

  // Invariants.
  const outcome = await readSweepOutcome(es, prefix, run.run, total, requestLog, { kills, restarts, cacheOutages: esOutages });
  const analysis = outcome.duplicates;
  const faulted = outcome.faultedChatRequests;
  const outageSeconds = esOutages.reduce((sum, o) => sum + (Date.parse(o.to) - Date.parse(o.from)) / 1000, 0);
  const wallSeconds = (Date.now() - started) / 1000;

  const checks: Array<[string, boolean]> = [
    [`sweep completed (status ${finalStatus || 'timeout'}, ${result?.done ?? '?'} done)`, finalStatus === 'COMPLETED' && result?.done === total],
    [`${total} (claim, method) pairs have a verdict (${outcome.pairs})`, outcome.pairs === total],
    ['every (claim, method) has exactly one verdict', outcome.exactlyOnePerPair],
    [`no failures (${outcome.failures})`, outcome.failures === 0],
    [`at least three SIGKILLs (${kills.length}) and one Temporal restart (${restarts.length})`, kills.length >= 3 && restarts.length === 1],
    [`Elasticsearch was unreachable for at least 60 s (${outageSeconds.toFixed(0)} s)`, outageSeconds >= 60],
    [`about 20% of LLM requests failed with 429/500 (${faulted} of ${outcome.chatRequests})`, outcome.chatRequests > 0 && faulted / outcome.chatRequests >= 0.1],
    [`every duplicated paid LLM request was in flight at a kill or the restart, or first paid while the request cache was down (${analysis.unexplained.length} unexplained)`, analysis.unexplained.length === 0],
  ];

  const lines = [
    '',
    `chaos sweep ${run.run} (${handle.workflowId}), index prefix ${prefix}`,
    `  disruptions: ${kills.map((k) => k.what).join('; ')}; ${[...restarts, ...esOutages].map((r) => `${r.what} ${r.from.slice(11, 19)}–${r.to.slice(11, 19)}`).join('; ')}`,
    `  LLM requests failed by the simulator: ${faulted} of ${outcome.chatRequests} (${((100 * faulted) / Math.max(1, outcome.chatRequests)).toFixed(1)}%, 429 and 500)`,
    `  verdicts: ${outcome.verdictDocuments} documents for ${outcome.pairs} (claim, method) pairs; per pair min ${outcome.minPerPair}, max ${outcome.maxPerPair}`,
    `  failures: ${outcome.failures}`,
    `  paid LLM requests (answered 200) in the simulator log: ${analysis.requests} (for ${total} verifications)`,
    `  paid request hashes seen more than once: ${analysis.duplicatedHashes}; in flight at a kill: ${analysis.inFlightAtKill}; in flight during the Temporal restart: ${analysis.inFlightAtRestart}; first paid while Elasticsearch (the request cache) was down: ${analysis.paidWhileCacheDown}; unexplained: ${analysis.unexplained.length}`,
    `  sweep: continued as new ${result?.continuedAsNew ?? '?'} time(s); ${result?.tokens ?? '?'} tokens; worker processes started: ${workerStarts}`,
    `  wall time: ${wallSeconds.toFixed(1)} s`,
    '',
    ...checkLines(checks),
    '',
  ];
  process.stdout.write(lines.join('\n'));

  if (keep) {
    say(`kept: the Temporal dev server at ${config.temporal.uiUrl} and the indices ${prefix}-*`);
  } else {
    await stopPidFile(temporalPaths(config.dataDir).pidFile, 'temporal');
    await deleteIndicesOf(es, prefix);
  }
  await es.close();
  await client.connection.close().catch(() => undefined);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}

runProof('chaos', main);
