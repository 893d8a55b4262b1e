/**
 * Wikipedia scale on the cluster (issue 40 item 4): a GENERATED corpus of `--total` passages (default
 * 5,000,000; passages made deterministically from the shared corpus with distinct ids and shuffled
 * words — no registry ships a Wikipedia passage dump, so this is not a real dump) loaded by the
 * durable bulk ingest (bulkIngestWorkflow) on the worker machines of `npm run infra:cluster -- up`,
 * with every ingest worker SIGKILLed once mid-way and started again; then count and checksum of the
 * index against the generator's, index size per million passages, and BM25 retrieval latency at
 * k = 20, measured idle and while a simulator sweep (every method) runs on the same cluster.
 *
 *   npm run bench:wiki-scale -- [--phase ingest|latency|all] [--total N] [--batch N] [--parallel N]
 *                               [--shards N] [--machines N] [--kill-at F] [--down-seconds S]
 *                               [--queries N] [--prefix P] [--out FILE]
 *
 *   --phase         ingest (load, kill, resume, verify), latency (needs a loaded prefix), all (default)
 *   --total         passages to generate (default 5000000)
 *   --batch         passages per batch / bulk request (default 2000); --parallel batches in flight (default 6)
 *   --shards        primary shards of the index (default 3, one per node)
 *   --machines      worker machines running ingest workers (default 2)
 *   --kill-at       fraction of the load at which every ingest worker is SIGKILLed (default 0.4; 0 = no kill)
 *   --down-seconds  how long no ingest worker runs after the kill (default 20)
 *   --queries       BM25 queries per latency measurement (default 400)
 *   --prefix        index prefix and task queue (default wiki5m): the index is <prefix>-wiki
 *   --out           results file (default eval/bench/results/wiki-scale.json; phases merge into it)
 * Needs root (the worker machines are network namespaces). Bounded: the load gives up after 3 hours.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureInfra } from '../../infra';
import { CommandProgress } from '../../src/cli/progress';
import { followBulkIngest, startBulkIngest } from '../../src/client/bulk-ingest';
import { startSweep } from '../../src/client/start-sweep';
import { connectTemporal } from '../../src/client/temporal';
import { loadConfig } from '../../src/config/config';
import { expectedGeneratedChecksum } from '../../src/corpus/bulk-ingest';
import { loadSourcePassages } from '../../src/corpus/generated-passages';
import { indexChecksum } from '../../src/corpus/index-checksum';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { projectRoot } from '../../src/project-root';
import type { BulkIngestInput } from '../../src/shared/bulk-ingest';
import { exitWithUsageIfAsked } from './support/usage';
import { CLUSTER_ES_LOCAL_URL, clusterEnv, HOST_IP, spawnMachineWorker, workerMachines } from '../chaos/cluster-machines';
import { endedStatus, prepareChaosRun, startSimulatorProcess } from '../chaos/sweep-outcome';
import { latencySummary, readClaimQueries, timeQueries } from './support/bm25-latency';

const ROOT = projectRoot();
const SOURCE_FILE = path.join(ROOT, '..', 'shared', 'data', 'corpus', 'wiki.jsonl');
const SWEEP_FILE = path.join(ROOT, 'eval', 'sweeps', 'cluster-chaos.yaml');
const LOAD_LIMIT_MS = 3 * 3600_000;
const say = (line: string) => process.stderr.write(`[wiki-scale ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function options() {
  const { values } = parseArgs({
    options: {
      phase: { type: 'string', default: 'all' },
      total: { type: 'string', default: '5000000' },
      batch: { type: 'string', default: '2000' },
      parallel: { type: 'string', default: '6' },
      shards: { type: 'string', default: '3' },
      machines: { type: 'string', default: '2' },
      'kill-at': { type: 'string', default: '0.4' },
      'down-seconds': { type: 'string', default: '20' },
      queries: { type: 'string', default: '400' },
      prefix: { type: 'string', default: 'wiki5m' },
      out: { type: 'string', default: path.join(ROOT, 'eval', 'bench', 'results', 'wiki-scale.json') },
    },
  });
  const int = (name: keyof typeof values) => {
    const parsed = Number(values[name]);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name}: not a number: ${values[name]}`);
    return parsed;
  };
  if (!['ingest', 'latency', 'all'].includes(values.phase!)) throw new Error(`--phase: ingest, latency or all, not ${values.phase}`);
  return {
    phase: values.phase!,
    total: int('total'),
    batch: int('batch'),
    parallel: int('parallel'),
    shards: int('shards'),
    machines: int('machines'),
    killAt: int('kill-at'),
    downMs: int('down-seconds') * 1000,
    queries: int('queries'),
    prefix: values.prefix!,
    out: path.resolve(values.out!),
  };
}

type Options = ReturnType<typeof options>;

/** CPU time all Elasticsearch nodes have used so far (ms); its rise over a run of queries is an upper bound of their cost (merges count too). */
async function esCpuMs(es: ReturnType<typeof createEsClient>): Promise<number> {
  const stats = await es.nodes.stats({ metric: 'process' });
  return Object.values(stats.nodes).reduce((sum, node) => sum + (node.process?.cpu?.total_in_millis ?? 0), 0);
}

/** When the simulator answered each LLM request (POST) so far. */
function simulatorPosts(requestLog: string): string[] {
  if (!fs.existsSync(requestLog)) return [];
  return fs
    .readFileSync(requestLog, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { method: string; time: string })
    .filter((record) => record.method === 'POST')
    .map((record) => record.time);
}

function mergeResults(out: string, key: string, value: unknown): void {
  const existing = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  existing[key] = value;
  existing.note = 'GENERATED corpus: passages made deterministically from /work/shared/data/corpus/wiki.jsonl (distinct ids, shuffled words), not a real Wikipedia dump';
  fs.writeFileSync(out, `${JSON.stringify(existing, null, 2)}\n`);
}

async function indexStats(es: ReturnType<typeof createEsClient>, index: string) {
  const [row] = await es.cat.indices({ index, format: 'json', bytes: 'b' });
  const docs = Number(row?.['docs.count'] ?? 0);
  const storeBytes = Number(row?.['store.size'] ?? 0);
  const primaryBytes = Number(row?.['pri.store.size'] ?? 0);
  return {
    docs,
    storeBytes,
    primaryBytes,
    primaryMbPerMillion: Math.round(primaryBytes / 1e6 / (docs / 1e6)),
    storeMbPerMillion: Math.round(storeBytes / 1e6 / (docs / 1e6)),
    shards: row?.pri,
    replicas: row?.rep,
  };
}

async function ingestPhase(opts: Options, machines: string[], workDir: string): Promise<void> {
  const config = loadConfig(process.env);
  const es = createEsClient({ ...config.elasticsearch, url: CLUSTER_ES_LOCAL_URL, requestTimeoutMs: 600_000 });
  const index = indexName(opts.prefix, 'wiki');
  const source = loadSourcePassages(SOURCE_FILE);
  const input: BulkIngestInput = {
    index,
    corpus: { sourceFile: SOURCE_FILE, sourceSha256: source.sha256, seed: 1, total: opts.total },
    batchSize: opts.batch,
    parallel: opts.parallel,
    shards: opts.shards,
  };
  say(`GENERATED corpus (not a real dump): ${opts.total} passages from ${source.passages.length} source passages of ${path.relative(ROOT, SOURCE_FILE)}`);
  const workers = new Map<string, ChildProcess>();
  const spawnWorkers = () => {
    for (const ns of machines.slice(0, opts.machines)) workers.set(ns, spawnMachineWorker(ROOT, ns, workDir));
    say(`ingest workers on ${[...workers.keys()].join(', ')} (pids ${[...workers.values()].map((child) => child.pid).join(', ')})`);
  };
  spawnWorkers();
  const client = await connectTemporal(config);
  const bar = new CommandProgress({ label: `ingest ${opts.total} generated passages`, unit: 'passages', intervalMs: 30_000 });
  let kill: { at: string; passages: number; restartedAt?: string } | undefined;
  try {
    const started = Date.now();
    const { handle, attached } = await startBulkIngest(client, config.temporal.taskQueue, input);
    say(`${attached ? 'attached to' : 'started'} ${handle.workflowId}`);
    const killAtPassages = opts.killAt > 0 ? Math.floor(opts.total * opts.killAt) : Infinity;
    const deadline = setTimeout(() => void handle.terminate('wiki-scale: load limit').catch(() => undefined), LOAD_LIMIT_MS);
    const result = await followBulkIngest(handle, (progress) => {
      bar.update({ done: progress.passages, total: progress.total, detail: `batch frontier ${progress.nextBatch}/${progress.batches}, ${progress.inFlight} in flight` });
      if (!kill && progress.passages >= killAtPassages) {
        kill = { at: new Date().toISOString(), passages: progress.passages };
        for (const child of workers.values()) child.kill('SIGKILL');
        workers.clear();
        say(`SIGKILLed every ingest worker at ${progress.passages} passages; none runs for ${opts.downMs / 1000} s`);
        setTimeout(() => {
          kill!.restartedAt = new Date().toISOString();
          spawnWorkers();
        }, opts.downMs);
      }
    });
    clearTimeout(deadline);
    bar.finish();
    const wallSeconds = (Date.now() - started) / 1000;
    const downSeconds = kill?.restartedAt ? (Date.parse(kill.restartedAt) - Date.parse(kill.at)) / 1000 : 0;
    say(`loaded ${result.passages} passages in ${wallSeconds.toFixed(0)} s (${downSeconds.toFixed(0)} s of it with no worker)`);
    const stats = await indexStats(es, index);
    say(`index ${index}: ${stats.docs} docs, ${stats.primaryMbPerMillion} MB per million passages (primaries), ${stats.storeMbPerMillion} MB with replicas`);
    const scanStarted = Date.now();
    const scanned = await indexChecksum(es, index, { slices: opts.shards, onPage: (read) => bar.update({ done: read, total: opts.total, phase: 'checksum scan' }) });
    const scanSeconds = (Date.now() - scanStarted) / 1000;
    const expected = expectedGeneratedChecksum(source, input.corpus);
    const checks = {
      countMatches: scanned.count === opts.total && stats.docs === opts.total,
      checksumMatchesGenerator: scanned.checksum === expected.checksum,
      checksumMatchesWorkflow: scanned.checksum === result.checksum,
    };
    say(`count ${scanned.count}/${opts.total}, checksum ${scanned.checksum} (generator ${expected.checksum}, workflow ${result.checksum}): ${Object.values(checks).every(Boolean) ? 'all match' : 'MISMATCH'}`);
    mergeResults(opts.out, 'ingest', {
      command: `npm run bench:wiki-scale -- --phase ingest --total ${opts.total} --batch ${opts.batch} --parallel ${opts.parallel} --shards ${opts.shards} --machines ${opts.machines} --kill-at ${opts.killAt}`,
      at: new Date().toISOString(),
      workflowId: handle.workflowId,
      passages: result.passages,
      batches: result.batches,
      batchSize: opts.batch,
      parallel: opts.parallel,
      workerMachines: opts.machines,
      esHeapMb: Number(process.env.VERITY_CLUSTER_ES_HEAP_MB ?? 384),
      wallSeconds: Math.round(wallSeconds),
      passagesPerSecond: Math.round(result.passages / wallSeconds),
      passagesPerSecondExcludingOutage: Math.round(result.passages / (wallSeconds - downSeconds)),
      kill,
      index: stats,
      verification: { scanned: scanned.count, checksum: scanned.checksum, generatorChecksum: expected.checksum, workflowChecksum: result.checksum, scanSeconds: Math.round(scanSeconds), ...checks },
    });
    if (!Object.values(checks).every(Boolean)) process.exitCode = 1;
  } finally {
    for (const child of workers.values()) child.kill('SIGTERM');
    await client.connection.close();
    await es.close();
  }
}

async function latencyPhase(opts: Options, machines: string[], workDir: string, simulatorUrl: string, requestLog: string): Promise<void> {
  const config = loadConfig(process.env);
  const es = createEsClient({ ...config.elasticsearch, url: CLUSTER_ES_LOCAL_URL, requestTimeoutMs: 120_000 });
  const index = indexName(opts.prefix, 'wiki');
  const queries = readClaimQueries(opts.queries);
  say(`${queries.length} BM25 queries (claim texts of HoVer and FEVER dev) at k = 20 against ${index}`);
  await timeQueries(es, index, queries.slice(0, 50)); // warm-up, not counted
  const cpuBefore = await esCpuMs(es);
  const idle = { ...latencySummary(await timeQueries(es, index, queries)), esCpuMsPerQuery: 0 };
  idle.esCpuMsPerQuery = Math.round((await esCpuMs(es)) - cpuBefore) / queries.length;
  say(`idle: p50 ${idle.p50Ms} ms, p99 ${idle.p99Ms} ms`);

  await ensureInfra(config, { log: say });
  const stamp = Date.now().toString(36);
  const { input, total } = await prepareChaosRun(es, config, SWEEP_FILE, stamp, say);
  const workers = machines.map((ns) => spawnMachineWorker(ROOT, ns, workDir));
  const client = await connectTemporal(config);
  try {
    const { handle } = await startSweep(client, config.temporal.taskQueue, input);
    say(`sweep ${handle.workflowId}: ${total} verifications on ${machines.length} machines, retrieving from ${index}`);
    // Measure only once the machines' workers are up and calling the LLM (their start takes minutes under load).
    const llmRequests = () => simulatorPosts(requestLog);
    const sweepDeadline = Date.now() + 600_000;
    while (llmRequests().length < 50 && Date.now() < sweepDeadline) await sleep(2_000);
    const windowStart = new Date().toISOString();
    const during: number[] = [];
    let rounds = 0;
    while ((await endedStatus(client, handle.workflowId)) === undefined && rounds < 3) {
      during.push(...(await timeQueries(es, index, queries)));
      rounds += 1;
    }
    const underSweep = latencySummary(during);
    const windowEnd = new Date().toISOString();
    const inWindow = llmRequests().filter((time) => time >= windowStart && time <= windowEnd).length;
    const llmRequestsPerSecond = Number((inWindow / ((Date.parse(windowEnd) - Date.parse(windowStart)) / 1000)).toFixed(1));
    const verdicts = (await es.count({ index: indexName(opts.prefix, 'verdicts') }).catch(() => ({ count: 0 }))).count;
    const status = await endedStatus(client, handle.workflowId);
    say(`while the sweep ran: p50 ${underSweep.p50Ms} ms, p99 ${underSweep.p99Ms} ms over ${underSweep.queries} queries (sweep ${status ?? 'still running'} at the end)`);
    await handle.cancel().catch(() => undefined);
    mergeResults(opts.out, 'latency', {
      command: `npm run bench:wiki-scale -- --phase latency --queries ${opts.queries} --prefix ${opts.prefix}`,
      at: new Date().toISOString(),
      index: await indexStats(es, index),
      k: 20,
      query: 'multi_match over content (BM25), as rag.search does; one query at a time from the bench host through node-1',
      idle,
      whileSweepRuns: { ...underSweep, window: { from: windowStart, to: windowEnd }, sweepLlmRequestsPerSecond: llmRequestsPerSecond, verdictsAtEnd: verdicts, sweep: `${total} verifications, every method (eval/sweeps/cluster-chaos.yaml, simulator at ${simulatorUrl}), ${machines.length} worker machines`, sweepStatusAfter: status ?? 'running (cancelled by the bench)' },
      ratioP50: Number((underSweep.p50Ms / idle.p50Ms).toFixed(2)),
      ratioP99: Number((underSweep.p99Ms / idle.p99Ms).toFixed(2)),
      dense: 'not measured: 5 M vectors of 384 float dims are 7.7 GB before the HNSW graph, more than the page cache left on this shared 24 GB machine beside three 1 GB-heap nodes and the other jobs, and embedding 5 M passages on 2 cores takes hours',
    });
  } finally {
    for (const child of workers) child.kill('SIGTERM');
    await client.connection.close();
    await es.close();
  }
}

async function main(): Promise<void> {
  exitWithUsageIfAsked(__filename);
  const opts = options();
  const machines = await workerMachines();
  const workDir = path.join(ROOT, '.verity', 'wiki-scale', opts.prefix);
  fs.mkdirSync(workDir, { recursive: true });
  const requestLog = path.join(workDir, `sim-requests-${Date.now().toString(36)}.jsonl`);
  const simulator = await startSimulatorProcess(ROOT, requestLog, 200, '', HOST_IP);
  Object.assign(process.env, clusterEnv(opts.prefix, simulator.url, workDir, { VERITY_LLM_RPS: '50', VERITY_LLM_CONCURRENCY: '16' }));
  try {
    if (opts.phase !== 'latency') await ingestPhase(opts, machines, workDir);
    if (opts.phase !== 'ingest') await latencyPhase(opts, machines, workDir, simulator.url, requestLog);
  } finally {
    simulator.process.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    say(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
