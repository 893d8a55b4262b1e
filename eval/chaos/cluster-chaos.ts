/**
 * The chaos proof on the cluster (`npm run bench:cluster-chaos`, issue 40 item 2): a mixed sweep
 * (every method, the LLM simulator failing 20% of requests) runs on worker processes in the
 * cluster's network namespaces (vcw1..N, reaching Temporal, Elasticsearch and the simulator only
 * through the bridge 10.77.0.1), while, one after another,
 *   (a) an Elasticsearch data node (node-3) is SIGKILLed and started again 60 s later,
 *   (b) worker machine vcw2's link is cut for 120 s and restored,
 *   (c) the Temporal server (on PostgreSQL) is restarted,
 *   (d) PostgreSQL is stopped for 30 s.
 * Afterwards: every (claim, method) has exactly one verdict, nothing failed, every paid LLM request
 * sent twice was in flight at a cut or while Temporal could not record progress, and the time each
 * fault took to recover from. Exits non-zero when an invariant fails.
 *
 * Needs root and `npm run infra:cluster -- up` first; leaves the cluster as it found it (up) and
 * deletes its indices (prefix cchaos-<stamp>). Traffic stays on the bridge and loopback.
 *
 * Usage: npm run bench:cluster-chaos -- [--config <sweep yaml>] [--keep]
 *   --config  the sweep (default eval/sweeps/cluster-chaos.yaml); every dataset needs a `sample`
 *   --keep    keep the indices afterwards
 */
import { type ChildProcess, execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureInfra } from '../../infra';
import { CommandProgress } from '../../src/cli/progress';
import { startSweep } from '../../src/client/start-sweep';
import { connectTemporal } from '../../src/client/temporal';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { projectRoot } from '../../src/project-root';
import { exitWithUsageIfAsked } from '../bench/support/usage';
import { CLUSTER_ES_LOCAL_URL, HOST_IP, clusterEnv, machineAddress, spawnMachineWorker, workerMachines } from './cluster-machines';
import { analyseCut, type Disruption } from './request-analysis';
import { checkLines, countVerdicts, deleteIndicesOf, endedStatus, prepareChaosRun, readSweepOutcome, runProof, startSimulatorProcess } from './sweep-outcome';

const ROOT = projectRoot();
const run = promisify(execFile);
const CLUSTER_SH = path.join(ROOT, 'infra', 'cluster', 'cluster.sh');
const STATE = process.env.VERITY_CLUSTER_STATE ?? '/var/lib/verity/cluster';
const PG_BIN = '/usr/lib/postgresql/15/bin';
const SIM_LATENCY_MS = 250;
const SIM_FAULTS = '429:0.1,500:0.1';
const ES_VICTIM = 3;
const ES_DOWN_MS = 60_000;
const CUT_WORKER = 2;
const CUT_MS = 120_000;
const PG_DOWN_MS = 30_000;
/** How long after its answer a worker may still be storing and reporting an LLM call (a loaded 2-core machine). */
const REPORT_WINDOW_MS = 5_000;
const FIRST_FAULT_AFTER_MS = 20_000;
const BETWEEN_FAULTS_MS = 15_000;
const TIMEOUT_MS = 45 * 60_000;

const say = (line: string) => process.stderr.write(`[cluster-chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => new Date().toISOString();
const seconds = (fromIso: string, toIso: string) => (Date.parse(toIso) - Date.parse(fromIso)) / 1000;

function parseArgs(argv: readonly string[]): { config: string; keep: boolean } {
  const options = { config: path.join(ROOT, 'eval', 'sweeps', 'cluster-chaos.yaml'), keep: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--keep') options.keep = true;
    else if (argv[i] === '--config') options.config = path.resolve(argv[++i] ?? '');
    else throw new Error(`unknown option ${argv[i]} (see --help)`);
  }
  return options;
}

/** One fault as it happened: when it started, when it was undone, and when the service was whole again. */
interface Fault {
  what: string;
  from: string;
  to: string;
  /** When the service reported itself whole (ES green with three nodes, Temporal serving, PostgreSQL accepting). */
  whole?: string;
}

const cluster = (...args: string[]) => run('bash', [CLUSTER_SH, 'step', ...args], { env: process.env });
const pidIn = (file: string) => Number(fs.readFileSync(file, 'utf8').trim());
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(what: string, check: () => Promise<boolean>, limitMs: number): Promise<string> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return now();
    await sleep(500);
  }
  throw new Error(`${what}: not within ${limitMs / 1000} s`);
}

async function main(): Promise<number> {
  exitWithUsageIfAsked(__filename);
  const { config: sweepFile, keep } = parseArgs(process.argv.slice(2));
  const namespaces = await workerMachines();

  const started = Date.now();
  const stamp = Date.now().toString(36);
  const workDir = path.join(ROOT, '.verity', 'cluster-chaos', stamp);
  fs.mkdirSync(workDir, { recursive: true });
  const requestLog = path.join(workDir, 'sim-requests.jsonl');
  const simulator = await startSimulatorProcess(ROOT, requestLog, SIM_LATENCY_MS, SIM_FAULTS, HOST_IP);
  say(`simulator ${simulator.url} (on the bridge), request log ${path.relative(ROOT, requestLog)}`);

  Object.assign(process.env, clusterEnv(`cchaos-${stamp}`, simulator.url, workDir, { VERITY_LLM_RPS: '50', VERITY_LLM_CONCURRENCY: '16' }));
  const config = loadConfig(process.env);
  await ensureInfra(config, { log: (line) => say(line) });
  const es = createEsClient({ ...config.elasticsearch, url: CLUSTER_ES_LOCAL_URL, requestTimeoutMs: 120_000 });
  const prefix = config.elasticsearch.indexPrefix;
  const { run: sweep, input, total } = await prepareChaosRun(es, config, sweepFile, stamp, say);

  const workers = new Map<string, ChildProcess>();
  let workerStarts = 0;
  const spawnWorker = (ns: string) => {
    workerStarts += 1;
    const child = spawnMachineWorker(ROOT, ns, workDir);
    workers.set(ns, child);
    say(`worker ${child.pid} on machine ${ns}`);
  };
  namespaces.forEach(spawnWorker);

  const client = await connectTemporal(config);
  const { handle } = await startSweep(client, config.temporal.taskQueue, input);
  say(`started ${handle.workflowId}: ${total} verifications on ${namespaces.length} worker machines`);

  const faults: Record<'es' | 'cut' | 'temporal' | 'postgres', Fault | undefined> = { es: undefined, cut: undefined, temporal: undefined, postgres: undefined };
  const kills: Disruption[] = [];
  const restarts: Disruption[] = [];
  const cacheOutages: Disruption[] = [];
  const cutNs = `vcw${CUT_WORKER}`;
  const esHealth = () => es.cluster.health({ timeout: '2s' });

  const schedule = async () => {
    await sleep(FIRST_FAULT_AFTER_MS);
    // (a) an Elasticsearch data node dies, the cluster promotes its replicas, it comes back.
    const esPidFile = path.join(STATE, 'es', `node-${ES_VICTIM}`, 'es.pid');
    const esFrom = now();
    process.kill(pidIn(esPidFile), 'SIGKILL');
    say(`(a) SIGKILLed Elasticsearch node-${ES_VICTIM}`);
    const serving = await waitFor('ES serving on two nodes', async () => {
      const health = await esHealth();
      return health.number_of_nodes === 2 && health.status !== 'red';
    }, 120_000);
    cacheOutages.push({ what: `ES node-${ES_VICTIM} lost, replicas promoted`, from: esFrom, to: serving });
    await sleep(Math.max(0, Date.parse(esFrom) + ES_DOWN_MS - Date.now()));
    await cluster('es_node_up', String(ES_VICTIM));
    const esTo = now();
    say(`(a) node-${ES_VICTIM} started again`);
    const green = await waitFor('ES green on three nodes', async () => {
      const health = await esHealth();
      return health.number_of_nodes === 3 && health.status === 'green';
    }, 600_000);
    faults.es = { what: `ES node-${ES_VICTIM} SIGKILLed, started again after ${ES_DOWN_MS / 1000} s (two nodes serving ${seconds(esFrom, serving).toFixed(1)} s after the kill)`, from: esFrom, to: esTo, whole: green };

    // (b) a worker machine's link is cut: its in-flight work has to move to the others.
    await sleep(BETWEEN_FAULTS_MS);
    const cutFrom = now();
    await run('ip', ['link', 'set', `${cutNs}-h`, 'down']);
    say(`(b) cut ${cutNs}'s link for ${CUT_MS / 1000} s`);
    // The cut machine loses what it had in flight, and answers it had received but not yet stored
    // in the request cache and reported to Temporal (REPORT_WINDOW_MS before the cut).
    kills.push({ what: `link of ${cutNs} cut`, from: new Date(Date.parse(cutFrom) - REPORT_WINDOW_MS).toISOString(), to: cutFrom, client: machineAddress(cutNs) });
    await sleep(CUT_MS);
    await run('ip', ['link', 'set', `${cutNs}-h`, 'up']);
    const cutTo = now();
    say(`(b) ${cutNs}'s link restored`);
    faults.cut = { what: `link of ${cutNs} cut for ${CUT_MS / 1000} s`, from: cutFrom, to: cutTo };

    // (c) the Temporal server restarts (same PostgreSQL).
    await sleep(BETWEEN_FAULTS_MS);
    const temporalFrom = now();
    const serverPid = pidIn(path.join(STATE, 'temporal', 'server.pid'));
    process.kill(serverPid, 'SIGTERM');
    await waitFor('Temporal server exit', async () => !alive(serverPid), 60_000).catch(() => process.kill(serverPid, 'SIGKILL'));
    const temporalDown = now();
    await cluster('temporal_up');
    const temporalServing = now();
    restarts.push({ what: 'Temporal server restart', from: temporalFrom, to: temporalServing });
    faults.temporal = { what: 'Temporal server restarted (SIGTERM, start)', from: temporalFrom, to: temporalDown, whole: temporalServing };
    say(`(c) Temporal server restarted, serving after ${seconds(temporalFrom, temporalServing).toFixed(1)} s`);
    // The client's connection reconnects by itself (closing it under a retrying call throws from a timer).

    // (d) PostgreSQL, Temporal's store, is stopped for 30 s.
    await sleep(BETWEEN_FAULTS_MS);
    const pgFrom = now();
    await run('runuser', ['-u', 'postgres', '--', `${PG_BIN}/pg_ctl`, '-D', path.join(STATE, 'pg-data'), '-m', 'fast', 'stop']);
    say(`(d) PostgreSQL stopped for ${PG_DOWN_MS / 1000} s`);
    await sleep(PG_DOWN_MS);
    await cluster('pg_up');
    const pgTo = now();
    const temporalAlive = alive(pidIn(path.join(STATE, 'temporal', 'server.pid')));
    restarts.push({ what: 'PostgreSQL stopped', from: pgFrom, to: pgTo });
    faults.postgres = { what: `PostgreSQL stopped for ${PG_DOWN_MS / 1000} s (Temporal server ${temporalAlive ? 'stayed up' : 'exited'})`, from: pgFrom, to: pgTo, whole: pgTo };
    say(`(d) PostgreSQL started again; Temporal server ${temporalAlive ? 'stayed up' : 'EXITED'}`);
    if (!temporalAlive) await cluster('temporal_up');
  };
  const faultsDone = schedule().then(
    () => undefined,
    (err: unknown) => err as Error,
  );

  // Verdicts over time, to see when each fault stopped holding progress back.
  const samples: Array<{ time: string; done: number }> = [];
  const progress = new CommandProgress({ label: 'cluster chaos sweep', unit: 'verdicts', intervalMs: config.progressIntervalMs });
  let finalStatus = '';
  while (Date.now() - started < TIMEOUT_MS) {
    const done = await countVerdicts(es, prefix, sweep.run);
    samples.push({ time: now(), done });
    progress.update({ done, total, detail: `faults done: ${Object.entries(faults).filter(([, f]) => f).map(([k]) => k).join(', ') || 'none'}` });
    for (const [ns, child] of workers) {
      if (child.exitCode !== null) {
        say(`worker on ${ns} exited on its own (${child.exitCode}); starting another`);
        spawnWorker(ns);
      }
    }
    const ended = await endedStatus(client, handle.workflowId);
    if (ended) {
      finalStatus = ended;
      break;
    }
    await sleep(1_000);
  }
  progress.finish();
  const scheduleError = await faultsDone;
  const sweepEnded = now();
  const result = finalStatus === 'COMPLETED' ? await client.workflow.getHandle(handle.workflowId).result() : undefined;
  for (const child of workers.values()) child.kill('SIGTERM');
  simulator.process.kill('SIGTERM');
  await sleep(2_000);

  const outcome = await readSweepOutcome(es, prefix, sweep.run, total, requestLog, { kills, restarts, cacheOutages });
  const cut = faults.cut ? analyseCut(outcome.records, machineAddress(cutNs), faults.cut, undefined, REPORT_WINDOW_MS) : undefined;
  /** From a fault's end to the first verdict stored after it. */
  const nextVerdictAfter = (fault: Fault) => {
    const before = samples.filter((s) => s.time <= fault.to).at(-1)?.done ?? 0;
    const next = samples.find((s) => s.time > fault.to && s.done > before);
    return next ? `${seconds(fault.to, next.time).toFixed(1)} s` : 'none';
  };
  const faultLines = Object.values(faults)
    .filter((fault): fault is Fault => fault !== undefined)
    .map(
      (fault) =>
        `  ${fault.what}: ${fault.from.slice(11, 19)}–${fault.to.slice(11, 19)}; whole again ${fault.whole ? `${seconds(fault.to, fault.whole).toFixed(1)} s after it was undone` : '(no service check)'}; next verdict ${nextVerdictAfter(fault)} after`,
    );
  const allFaults = Object.values(faults).every((fault) => fault !== undefined && fault.to < sweepEnded);
  const analysis = outcome.duplicates;
  const checks: Array<[string, boolean]> = [
    [`sweep completed (status ${finalStatus || 'timeout'}, ${result?.done ?? '?'} done)`, finalStatus === 'COMPLETED' && result?.done === total],
    [`${total} (claim, method) pairs have a verdict (${outcome.pairs})`, outcome.pairs === total],
    ['every (claim, method) has exactly one verdict', outcome.exactlyOnePerPair],
    [`no failures (${outcome.failures})`, outcome.failures === 0],
    [`all four faults happened while the sweep ran${scheduleError ? ` (${scheduleError.message})` : ''}`, allFaults && !scheduleError],
    [
      `every paid LLM request sent twice was in flight at the cut or while Temporal could not record progress, or first paid while an ES node was lost (${analysis.unexplained.length} unexplained)`,
      analysis.unexplained.length === 0,
    ],
  ];
  const lines = [
    '',
    `cluster chaos sweep ${sweep.run} (${handle.workflowId}), index prefix ${prefix}, ${namespaces.length} worker machines (${namespaces.join(', ')})`,
    ...faultLines,
    `  cut machine ${cutNs}: paid requests in flight at the cut, or answered within ${REPORT_WINDOW_MS / 1000} s before it ${cut?.inFlightAtCut ?? '?'}, sent again by another machine ${cut?.resentElsewhere ?? '?'} (the last ${cut?.longestMoveMs !== undefined ? `${(cut.longestMoveMs / 1000).toFixed(1)} s` : '–'} after the cut); its next request ${cut?.rejoinedAfterMs !== undefined ? `${(cut.rejoinedAfterMs / 1000).toFixed(1)} s` : '–'} after the link returned`,
    `  LLM requests failed by the simulator: ${outcome.faultedChatRequests} of ${outcome.chatRequests} (429 and 500)`,
    `  verdicts: ${outcome.verdictDocuments} documents for ${outcome.pairs} (claim, method) pairs; per pair min ${outcome.minPerPair}, max ${outcome.maxPerPair}`,
    `  failures: ${outcome.failures}`,
    `  paid LLM requests: ${analysis.requests}; hashes paid more than once: ${analysis.duplicatedHashes} (in flight at the cut: ${analysis.inFlightAtKill}; while Temporal or PostgreSQL was down: ${analysis.inFlightAtRestart}; first paid while an ES node was lost: ${analysis.paidWhileCacheDown}; unexplained: ${analysis.unexplained.length})`,
    `  sweep: continued as new ${result?.continuedAsNew ?? '?'} time(s); worker processes started: ${workerStarts}; wall time ${((Date.now() - started) / 1000).toFixed(1)} s`,
    '',
    ...checkLines(checks),
    '',
  ];
  process.stdout.write(lines.join('\n'));

  if (!keep) {
    await deleteIndicesOf(es, prefix);
  }
  await es.close();
  await client.connection.close().catch(() => undefined);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}

runProof('cluster-chaos', main);
