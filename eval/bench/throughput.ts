/**
 * npm run bench:throughput -- [--quick] [--latencies 0.5,2] [--methods rag,mermaid,…] [--rps 50]
 *   [--concurrency 64] [--warmup S] [--window S] [--temporal 127.0.0.1:7252] [--out file] [--keep]
 *   [--worker-tuning workflowPollers=N,workflowThreads=N,…]  (as VERITY_WORKER_TUNING; both workers)
 *   [--scale-out-claims N]  (default 600, 0 with --quick: none)
 *
 * Side by side, in one run, on this machine and the same services: a sequential script (one claim
 * at a time: BM25 top-5, then one chat call), the raw engine ceiling (workflows of the same shape
 * as each method that only wait out the latency: eval/bench/throughput/raw-workflows.ts), and
 * verity sweeps of each method, at each simulator latency L, with the LLM queue limited to R
 * calls/s and C running, and a sweep window of C claims.
 *
 * Every row runs `--warmup` seconds, then is measured for `--window` seconds (default 10 + 60;
 * `--quick`: L = 0.5 s only, 2 + 4 s, no raw-engine row for methods whose claims outlast that window:
 * Tool-MAD, ToE; about 2.5 minutes), then everything still running is terminated. Per row:
 * claims/s and LLM calls/s in the window, Temporal tasks (workflow + activity) per claim from the
 * histories of finished claims (plus the sweep's own workflow tasks per claim), engine CPU
 * seconds (Temporal server + the worker, which is this process) per LLM call, and apart from it
 * the CPU per LLM call of Elasticsearch and of the simulator (the provider's side of each call; the
 * raw engine calls no provider), the most LLM requests in any 1-s window, and the ratios to the
 * provider/latency bound, to the raw engine of the same shape, and to the sequential script.
 *
 * It starts its own Temporal dev server (as `infra` does: SQLite file, WAL; data in
 * .verity/bench-throughput, stopped at the end unless --keep) at --temporal; the simulator is a
 * process of its own (its CPU is not the engine's). Indices `bench-throughput-{wiki,web}` are
 * ingested once and kept. Writes a table to stdout and JSON to --out
 * (default eval/bench/results/throughput[-quick].json).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import type { Client } from '@temporalio/client';
import { elasticsearchPidFile, ensureElasticsearch } from '../../infra/elasticsearch';
import { livePid, stopPidFile } from '../../infra/support';
import { devServerPid, ensureTemporal, temporalPaths } from '../../infra/temporal';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { loadConfig, type VerityConfig } from '../../src/config/config';
import { CommandProgress } from '../../src/cli/progress';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { createLogger } from '../../src/logging/logger';
import { projectRoot } from '../../src/project-root';
import { retrievePassages } from '../../src/retrieval/retrieve';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { METHOD_NAMES, methodDefinition, type MethodName } from '../../src/methods/registry';
import type { SimRequestRecord } from '../../src/simulator/request-log';
import { createVerityWorker } from '../../src/worker/create-worker';
import { installTemporalRuntime } from '../../src/worker/run-worker';
import { SHARED_DATA_DIR } from './support/claims-and-corpus';
import { connectTemporal } from '../../src/client/temporal';
import { ingestIndex, runMain, startInProcessWorker, writeReport } from './support/bench-stack';
import { exitWithUsageIfAsked } from './support/usage';
import { type ClaimShape, meanShape, shapeOfWorkflow, sumShape, sweepTasksPerChild } from './throughput/history-shape';
import { ownCpuSeconds, peakInWindow, processCpuSeconds, providerBound, round } from './throughput/figures';
import { inBackground } from './throughput/background-loop';
import { createRawActivities } from './throughput/raw-activities';
import { type ScaleOutContext, type ScaleOutRow, scaleOutRow } from './throughput/scale-out';
import { type RawShape, rawSweepWorkflow } from './throughput/raw-workflows';

const ROOT = projectRoot();
const PREFIX = 'bench-throughput';
const ALL_METHODS: MethodName[] = METHOD_NAMES;
const SAMPLED_CLAIMS = 3;
/** Below this many finished claims in a window, ratios compare LLM calls/s. */
const MIN_CLAIMS = 5;

const say = (line: string) => process.stderr.write(`[throughput ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  latencyS: number;
  kind: 'sequential script' | 'raw engine' | 'verity';
  method: string;
  claims: number;
  windowS: number;
  claimsPerSecond: number;
  llmCallsPerSecond: number;
  llmCallsPerClaim: number;
  tasksPerClaim?: number;
  shape?: ClaimShape;
  engineCpuSecondsPerLlmCall?: number;
  /** Elasticsearch's CPU per LLM call: verity's own retrieval, cache and verdict work, which the raw engine does not do. */
  esCpuSecondsPerLlmCall?: number;
  /** The simulator's CPU per LLM call: the provider's side of each call, on this machine's cores here (the raw engine calls no provider). */
  simulatorCpuSecondsPerLlmCall?: number;
  peakLlmRequestsPerSecond: number;
  bound?: { claimsPerSecond: number; binds: 'rate' | 'latency' };
  toBound?: number;
  /** Fewer than MIN_CLAIMS claims finished in the window: the ratios compare LLM calls/s instead of claims/s. */
  ratiosBy?: 'claims' | 'LLM calls';
  /** Where the raw engine's shape was read: finished claims, or (none finished in the window) the histories so far of claims in flight. */
  shapeFrom?: 'finished claims' | 'claims in flight';
  toRawEngine?: number;
  toSequential?: number;
}

interface Settings {
  latencies: number[];
  methods: MethodName[];
  rps: number;
  concurrency: number;
  warmupS: number;
  windowS: number;
}

function readSettings(): Settings & { quick: boolean; temporal: string; out: string; keep: boolean; workerTuning: string; scaleOutClaims: number } {
  exitWithUsageIfAsked(__filename);
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      latencies: { type: 'string' },
      methods: { type: 'string' },
      rps: { type: 'string', default: '50' },
      concurrency: { type: 'string', default: '64' },
      warmup: { type: 'string' },
      window: { type: 'string' },
      temporal: { type: 'string', default: '127.0.0.1:7252' },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'worker-tuning': { type: 'string' },
      'scale-out-claims': { type: 'string' },
    },
  });
  const quick = values.quick ?? false;
  const methods = (values.methods?.split(',') ?? ALL_METHODS) as MethodName[];
  const unknown = methods.filter((m) => !ALL_METHODS.includes(m));
  if (unknown.length > 0) throw new Error(`--methods: unknown method ${unknown[0]}; known: ${ALL_METHODS.join(', ')}`);
  const numbers = (text: string, what: string) =>
    text.split(',').map((part) => {
      const value = Number(part);
      if (!Number.isFinite(value) || value <= 0) throw new Error(`${what}: expected positive numbers, got "${part}"`);
      return value;
    });
  return {
    quick,
    latencies: numbers(values.latencies ?? (quick ? '0.5' : '0.5,2'), '--latencies'),
    methods,
    rps: numbers(values.rps!, '--rps')[0]!,
    concurrency: numbers(values.concurrency!, '--concurrency')[0]!,
    warmupS: numbers(values.warmup ?? (quick ? '2' : '10'), '--warmup')[0]!,
    windowS: numbers(values.window ?? (quick ? '4' : '60'), '--window')[0]!,
    temporal: values.temporal!,
    out: values.out ?? path.join(ROOT, 'eval', 'bench', 'results', quick ? 'throughput-quick.json' : 'throughput.json'),
    keep: values.keep ?? false,
    workerTuning: values['worker-tuning'] ?? process.env.VERITY_WORKER_TUNING ?? '',
    scaleOutClaims: Number(values['scale-out-claims'] ?? (quick ? 0 : 600)),
  };
}

interface ClaimRecord {
  id: string;
  claim: string;
}

let claimsHandedOut = 0;

/**
 * FEVER and HoVer dev claims over the wiki corpus, repeated with a numbered suffix when more are
 * needed. Each call hands out claims no earlier call did, so that no row's LLM call is answered
 * from the LLM cache of an earlier row.
 */
function claimPool(count: number): ClaimRecord[] {
  const offset = claimsHandedOut;
  claimsHandedOut += count;
  const base = ['fever', 'hover'].flatMap((name) =>
    fs
      .readFileSync(path.join(SHARED_DATA_DIR, 'dev', `${name}.jsonl`), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ClaimRecord),
  );
  return Array.from({ length: count }, (_, n) => {
    const i = offset + n;
    const { id, claim } = base[i % base.length]!;
    const copy = Math.floor(i / base.length);
    return copy === 0 ? { id, claim } : { id: `${id}~${copy}`, claim: `${claim} (${copy})` };
  });
}

function writeClaimsFile(dir: string, name: string, claims: ClaimRecord[]): string {
  const file = path.join(dir, `${name}.jsonl`);
  const lines = claims.map(({ id, claim }) => JSON.stringify({ id, dataset: 'throughput', split: 'dev', claim, label: 'NEI', label_norm: 'NEI', gold_titles: [], gold_sentences: [], meta: {} }));
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The simulator as a process of its own with latency L, logging every request. */
async function startSimulatorProcess(latencyMs: number, requestLog: string): Promise<{ url: string; process: ChildProcess; requests(): SimRequestRecord[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'eval', 'chaos', 'simulator-process.ts'), requestLog, String(latencyMs)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
  });
  return {
    url,
    process: child,
    requests: () =>
      fs.existsSync(requestLog)
        ? fs
            .readFileSync(requestLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as SimRequestRecord)
        : [],
  };
}

const chatArrivals = (records: SimRequestRecord[]) => records.filter((r) => r.path.endsWith('/chat/completions')).map((r) => Date.parse(r.time));

/** Terminates every running workflow started since `since` (the row's leftovers). */
async function terminateLeftovers(client: Client, since: string): Promise<void> {
  const ids: string[] = [];
  for await (const execution of client.workflow.list({ query: `ExecutionStatus = "Running" AND StartTime >= "${since}"` })) ids.push(execution.workflowId);
  await Promise.all(ids.map((id) => client.workflow.getHandle(id).terminate('bench:throughput window over').catch(() => undefined)));
}

async function countCompleted(client: Client, workflowType: string, since: string): Promise<number> {
  const { count } = await client.workflow.count(`WorkflowType = "${workflowType}" AND ExecutionStatus = "Completed" AND StartTime >= "${since}"`);
  return count;
}

async function sampleClaims(client: Client, workflowType: string, since: string, status: 'Completed' | 'Running' = 'Completed'): Promise<string[]> {
  const ids: string[] = [];
  for await (const execution of client.workflow.list({ query: `WorkflowType = "${workflowType}" AND ExecutionStatus = "${status}" AND StartTime >= "${since}"` })) {
    ids.push(execution.workflowId);
    if (ids.length >= SAMPLED_CLAIMS) break;
  }
  return ids;
}

/** The Elasticsearch node's pid, when it is a local one (its CPU is reported apart from the engine's). */
let elasticsearchPid: number | undefined;
/** The simulator process of the current latency (its CPU is the provider's work, reported apart too). */
let simulatorPid: number | undefined;

interface Window {
  claims: number;
  llmCalls: number;
  cpuSeconds: number | undefined;
  esCpuSeconds: number | undefined;
  simulatorCpuSeconds: number | undefined;
  seconds: number;
}

/** Measures `--window` seconds after `--warmup`: completed claims, LLM calls and engine CPU. */
async function measureWindow(settings: Settings, serverPid: number | undefined, completed: () => Promise<number>, llmCalls: () => number): Promise<Window> {
  // The warm-up starts once work flows: a claim finished or LLM calls made (a sweep first stores its claims).
  const deadline = Date.now() + 120_000;
  while ((await completed()) === 0 && llmCalls() < settings.concurrency) {
    if (Date.now() > deadline) throw new Error('no claim finished and no LLM call was made within 120 s: the worker is not serving this row');
    await sleep(250);
  }
  await sleep(settings.warmupS * 1000);
  const cpu = () => {
    const server = serverPid === undefined ? undefined : processCpuSeconds(serverPid);
    return server === undefined ? undefined : server + ownCpuSeconds();
  };
  const cpuOf = (pid: number | undefined) => (pid === undefined ? undefined : processCpuSeconds(pid));
  const start = { at: Date.now(), claims: await completed(), llm: llmCalls(), cpu: cpu(), es: cpuOf(elasticsearchPid), simulator: cpuOf(simulatorPid) };
  await sleep(settings.windowS * 1000);
  const end = { at: Date.now(), claims: await completed(), llm: llmCalls(), cpu: cpu(), es: cpuOf(elasticsearchPid), simulator: cpuOf(simulatorPid) };
  const spent = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? undefined : to - from);
  return {
    claims: end.claims - start.claims,
    llmCalls: end.llm - start.llm,
    cpuSeconds: spent(start.cpu, end.cpu),
    esCpuSeconds: spent(start.es, end.es),
    simulatorCpuSeconds: spent(start.simulator, end.simulator),
    seconds: (end.at - start.at) / 1000,
  };
}

function rowOf(base: Pick<Row, 'latencyS' | 'kind' | 'method'>, window: Window, peak: number, shape?: ClaimShape, sweepTasks = 0): Row {
  const llmCallsPerClaim = window.claims > 0 ? window.llmCalls / window.claims : 0;
  return {
    ...base,
    claims: window.claims,
    windowS: round(window.seconds, 1),
    claimsPerSecond: round(window.claims / window.seconds),
    llmCallsPerSecond: round(window.llmCalls / window.seconds),
    llmCallsPerClaim: round(llmCallsPerClaim),
    ...(shape ? { tasksPerClaim: round(shape.workflowTasks + shape.llmActivities + shape.otherActivities + sweepTasks, 1), shape } : {}),
    ...(window.cpuSeconds !== undefined && window.llmCalls > 0 ? { engineCpuSecondsPerLlmCall: round(window.cpuSeconds / window.llmCalls, 4) } : {}),
    ...(window.esCpuSeconds !== undefined && window.llmCalls > 0 ? { esCpuSecondsPerLlmCall: round(window.esCpuSeconds / window.llmCalls, 4) } : {}),
    ...(window.simulatorCpuSeconds !== undefined && window.llmCalls > 0 ? { simulatorCpuSecondsPerLlmCall: round(window.simulatorCpuSeconds / window.llmCalls, 4) } : {}),
    peakLlmRequestsPerSecond: peak,
  };
}

/** The sequential script: one claim at a time, BM25 top-5 then one chat call, for the window. */
async function sequentialRow(latencyS: number, settings: Settings, es: ReturnType<typeof createEsClient>, simulatorUrl: string, claims: ClaimRecord[]): Promise<Row> {
  const arrivals: number[] = [];
  let done = 0;
  let stop = false;
  const loop = inBackground(async () => {
    for (const { claim } of claims) {
      if (stop) break;
      const passages = await retrievePassages({ es }, { index: indexName(PREFIX, 'wiki'), query: claim, k: 5, mode: 'bm25' });
      arrivals.push(Date.now());
      const response = await fetch(`${simulatorUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-simulator' },
        body: JSON.stringify({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: `Claim: ${claim}\n\nPassages:\n${passages.map((p) => `[${p.id}] ${p.title}: ${p.text}`).join('\n')}\n\nIs the claim SUPPORTED, REFUTED or NEI?` }],
        }),
      });
      if (!response.ok) throw new Error(`sequential script: the simulator answered ${response.status}`);
      await response.json();
      done += 1;
    }
  });
  const completed = () => {
    loop.check();
    return Promise.resolve(done);
  };
  const window = await measureWindow(settings, undefined, completed, () => done);
  stop = true;
  await loop.settled;
  loop.check();
  return rowOf({ latencyS, kind: 'sequential script', method: 'rag' }, window, peakInWindow(arrivals));
}

async function main(): Promise<void> {
  const settings = readSettings();
  const { rps, concurrency } = settings;
  const port = Number(settings.temporal.split(':')[1]);
  const dataDir = path.join(ROOT, '.verity', 'bench-throughput');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-throughput-'));
  const baseEnv = {
    ...process.env,
    VERITY_LOG_LEVEL: 'warn',
    VERITY_DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: settings.temporal,
    TEMPORAL_UI_URL: `http://127.0.0.1:${port + 1000}`,
    ES_INDEX_PREFIX: PREFIX,
    VERITY_LLM_RPS: String(rps),
    VERITY_LLM_CONCURRENCY: String(concurrency),
    VERITY_WORKER_TUNING: settings.workerTuning,
    TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH ?? [path.join(ROOT, '.verity', 'bin', 'temporal')].find((file) => fs.existsSync(file)) ?? '',
  };
  const infraConfig = loadConfig(baseEnv);
  const elasticsearch = await ensureElasticsearch(infraConfig, say);
  const temporal = await ensureTemporal(infraConfig, say);
  const serverPid = temporal.pid ?? devServerPid(infraConfig);
  // The shared node is usually the one `npm run infra:up` started, under the default data dir.
  elasticsearchPid = elasticsearch.pid ?? livePid(elasticsearchPidFile(loadConfig({ ...process.env, ES_URL: infraConfig.elasticsearch.url })));
  if (serverPid === undefined) say(`the Temporal server at ${settings.temporal} was not started by verity: its CPU is not counted`);
  installTemporalRuntime(createLogger('warn'));

  const es = createEsClient({ url: infraConfig.elasticsearch.url, requestTimeoutMs: 300_000 });
  const stamp = Date.now().toString(36);
  const rows: Row[] = [];
  const scaleOut: ScaleOutRow[] = [];
  const args = process.argv.slice(2).join(' ');
  const command = args ? `npm run bench:throughput -- ${args}` : 'npm run bench:throughput';
  const report = (complete: boolean) => ({ command, complete, machine: { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg() }, settings, rows, scaleOut });
  // Written after every row, so that a long run that is stopped keeps the rows it finished.
  // Where the bench stands, in measurement windows: per latency the sequential script, then verity and the raw engine per method (a raw row left out still counts), then the scale-out pair.
  const windowsPerLatency = 1 + 2 * settings.methods.length;
  const totalWindows = settings.latencies.length * windowsPerLatency + (settings.scaleOutClaims > 0 ? 2 : 0);
  const progress = new CommandProgress({ label: 'bench throughput', unit: 'measurement windows', intervalMs: infraConfig.progressIntervalMs });
  let windowsDone = 0;
  const measured = (windows: number, detail: string) => progress.update({ done: (windowsDone += windows), total: totalWindows, detail });
  const print = (row: Row) => {
    fs.mkdirSync(path.dirname(settings.out), { recursive: true });
    fs.writeFileSync(settings.out, `${JSON.stringify(report(false), null, 2)}\n`);
    say(
      `L=${row.latencyS}s ${row.kind} ${row.method}: ${row.claimsPerSecond} claims/s, ${row.llmCallsPerSecond} LLM calls/s, ` +
        `${row.tasksPerClaim ?? '–'} tasks/claim, peak ${row.peakLlmRequestsPerSecond}/s`,
    );
  };
  try {
    const wiki = indexName(PREFIX, 'wiki');
    if (!(await es.indices.exists({ index: wiki }))) say(`ingested ${(await ingestIndex(es, wiki, path.join(SHARED_DATA_DIR, 'corpus', 'wiki.jsonl'))).documents} documents into ${wiki}`);
    const web = webIndexName(PREFIX);
    if (!(await es.indices.exists({ index: web }))) say(`ingested ${(await ingestIndex(es, web, path.join(SHARED_DATA_DIR, 'corpus', 'web_factcheckbench.jsonl'), WEB_TARGET)).documents} passages into ${web}`);
    for (const latencyS of settings.latencies) {
      const requestLog = path.join(workDir, `sim-${latencyS}.jsonl`);
      const simulator = await startSimulatorProcess(latencyS * 1000, requestLog);
      simulatorPid = simulator.process.pid;
      const taskQueue = `${PREFIX}-${stamp}-${String(latencyS).replace('.', '_')}`;
      const configEnv = { ...baseEnv, TEMPORAL_TASK_QUEUE: taskQueue, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-simulator' };
      const config: VerityConfig = loadConfig(configEnv);
      const rowsBefore = rows.length;
      try {
        progress.update({ done: windowsDone, total: totalWindows, detail: `L=${latencyS}s sequential script` });
        const sequential = await sequentialRow(latencyS, settings, es, simulator.url, claimPool(5_000));
        rows.push(sequential);
        print(sequential);
        measured(1, `L=${latencyS}s sequential script done`);

        const worker = await startInProcessWorker(config, createLogger('warn'), { llm: { requestsPerSecond: rps, concurrency } });
        const rawCalls: number[] = [];
        const raw = await createVerityWorker({
          temporal: config.temporal,
          taskQueue: `${taskQueue}-raw`,
          workflowsPath: require.resolve('./throughput/raw-workflows'),
          activities: createRawActivities(),
          llmActivities: { rawLlm: (ms: number) => (rawCalls.push(Date.now()), createRawActivities().rawLlm(ms)) },
          llm: { requestsPerSecond: rps, concurrency },
          tuning: config.workerTuning,
        });
        const rawDone = raw.worker.run();
        const client = worker.client;
        try {
          for (const method of settings.methods) {
            const expected = providerBound({ rps, concurrency, latencyS, llmCallsPerClaim: methodDefinition(method).llmCallsPerClaim, llmRoundsPerClaim: 1 }).claimsPerSecond;
            const claimCount = Math.max(2 * concurrency, Math.ceil(expected * (settings.warmupS + settings.windowS) * 1.3));
            const runId = `tp-${stamp}-${method}-${String(latencyS).replace('.', '_')}`;
            const file = writeClaimsFile(workDir, runId, claimPool(claimCount));
            const run = runConfigSchema.parse({
              run: runId,
              datasets: [{ name: 'throughput', file, format: 'verity' }],
              methods: [method],
              models: ['gpt-4o-mini'],
              concurrency,
              ...(method === 'mermaid' ? { parameters: { mermaid: { memory: 'off' } } } : {}),
            });
            const since = new Date().toISOString();
            const chatBefore = () => chatArrivals(simulator.requests()).filter((t) => t >= Date.parse(since)).length;
            const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, workDir));
            const window = await measureWindow(settings, serverPid, () => countCompleted(client, 'verifyClaimWorkflow', since), chatBefore);
            // Claims that take longer than the window (Tool-MAD, ToE): the shape so far of claims in flight, compared by LLM calls.
            const finished = await sampleClaims(client, 'verifyClaimWorkflow', since);
            const shapeFrom = finished.length > 0 ? 'finished claims' : 'claims in flight';
            const sampled = finished.length > 0 ? finished : await sampleClaims(client, 'verifyClaimWorkflow', since, 'Running');
            const shapes = await Promise.all(sampled.map((id) => shapeOfWorkflow(client, id)));
            const sweepTasks = await sweepTasksPerChild(client, handle.workflowId);
            await terminateLeftovers(client, since);
            const shape = meanShape(shapes);
            const peak = peakInWindow(chatArrivals(simulator.requests()).filter((t) => t >= Date.parse(since)));
            const verity = { ...rowOf({ latencyS, kind: 'verity', method }, window, peak, shape, sweepTasks), shapeFrom } satisfies Row;
            await sleep(latencyS * 1000 + 1_000);

            // The raw engine with the same shape, on the same server and worker settings. None without a claim to copy, and none
            // in a quick run for claims that outlast its window: a few seconds of a claim in flight is no shape to compare with.
            const noRawRow = shapes.length === 0 || (settings.quick && shapeFrom === 'claims in flight');
            const rawRow = noRawRow ? undefined : await (async () => {
              // From claims in flight, one raw claim does the work of all sampled claims so far: whole numbers keep their ratios per LLM call.
              const copied = shapeFrom === 'finished claims' ? shape : sumShape(shapes);
              const rawShape: RawShape = {
                llmCalls: Math.max(1, Math.round(copied.llmActivities)),
                llmParallel: Math.max(1, Math.round(copied.llmActivities / Math.max(copied.llmRounds, 1))),
                activities: Math.round(copied.otherActivities),
                localActivities: Math.round(copied.localActivities),
                children: Math.round(copied.childWorkflows),
              };
              const rawSince = new Date().toISOString();
              const rawCallsBefore = rawCalls.length;
              await client.workflow.start(rawSweepWorkflow, {
                workflowId: `${runId}-raw`,
                taskQueue: `${taskQueue}-raw`,
                args: [{ runId: `${runId}-raw`, claims: claimCount, concurrency, shape: rawShape, latencyMs: latencyS * 1000 }],
              });
              const rawWindow = await measureWindow(settings, serverPid, () => countCompleted(client, 'rawClaimWorkflow', rawSince), () => rawCalls.length - rawCallsBefore);
              const rawShapes = await Promise.all((await sampleClaims(client, 'rawClaimWorkflow', rawSince)).map((id) => shapeOfWorkflow(client, id)));
              const rawSweepTasks = await sweepTasksPerChild(client, `${runId}-raw`);
              await terminateLeftovers(client, rawSince);
              const row = rowOf({ latencyS, kind: 'raw engine', method }, rawWindow, peakInWindow(rawCalls.slice(rawCallsBefore)), meanShape(rawShapes), rawSweepTasks);
              await sleep(latencyS * 1000 + 1_000);
              return row;
            })();

            const llmCallsPerClaim = shape.llmActivities || verity.llmCallsPerClaim || 1;
            const bound = providerBound({ rps, concurrency, latencyS, llmCallsPerClaim, llmRoundsPerClaim: shape.llmRounds });
            // Few finished claims (ToE's take minutes), or claims of other lengths in the two rows (the claims that finish
            // first in a window are the short ones the raw shape was copied from): compare LLM calls/s, which the window measures well.
            const lengthsDiffer = rawRow !== undefined && Math.abs(verity.llmCallsPerClaim - rawRow.llmCallsPerClaim) > 0.25 * Math.max(rawRow.llmCallsPerClaim, 1);
            const byLlm = verity.claims < MIN_CLAIMS || (rawRow !== undefined && rawRow.claims < MIN_CLAIMS) || lengthsDiffer;
            const rate = (row: Row) => (byLlm ? row.llmCallsPerSecond : row.claimsPerSecond);
            const boundRate = byLlm ? bound.claimsPerSecond * llmCallsPerClaim : bound.claimsPerSecond;
            for (const row of rawRow ? [rawRow, verity] : [verity]) {
              row.bound = { claimsPerSecond: round(bound.claimsPerSecond), binds: bound.binds };
              row.toBound = round(rate(row) / boundRate);
              row.ratiosBy = byLlm ? 'LLM calls' : 'claims';
            }
            if (rawRow && rate(rawRow) > 0) verity.toRawEngine = round(rate(verity) / rate(rawRow));
            if (method === 'rag' && sequential.claimsPerSecond > 0) verity.toSequential = round(verity.claimsPerSecond / sequential.claimsPerSecond, 1);
            for (const row of rawRow ? [rawRow, verity] : [verity]) {
              rows.push(row);
              print(row);
            }
            measured(2, `L=${latencyS}s ${method} done`);
          }
        } finally {
          raw.worker.shutdown();
          await rawDone.catch(() => undefined);
          await raw.connection.close();
          await worker.close({ ignoreWorkerFailure: true });
        }
        if (settings.scaleOutClaims > 0 && latencyS === settings.latencies[0]) {
          // After the in-process worker has stopped: only the worker processes serve these sweeps.
          const client = await connectTemporal(config);
          try {
            const context: ScaleOutContext = {
              latencyS,
              claims: settings.scaleOutClaims,
              concurrency,
              env: configEnv,
              config,
              client,
              es,
              serverPid,
              requests: simulator.requests,
              writeClaims: (runId, count) => writeClaimsFile(workDir, runId, claimPool(count)),
              workDir,
              say,
            };
            const one = await scaleOutRow(context, 1, stamp);
            const two = await scaleOutRow(context, 2, stamp);
            if (one.claimsPerSecond > 0) two.toOneWorker = round(two.claimsPerSecond / one.claimsPerSecond);
            scaleOut.push(one, two);
            measured(2, `L=${latencyS}s scale-out done`);
          } finally {
            await client.connection.close();
          }
        }
      } finally {
        simulator.process.kill('SIGTERM');
        simulatorPid = undefined;
        say(`L=${latencyS}s: ${rows.length - rowsBefore} rows`);
      }
    }
  } finally {
    progress.finish();
    await es.close();
    if (!settings.keep && temporal.state === 'started') await stopPidFile(temporalPaths(dataDir).pidFile, 'temporal');
    fs.rmSync(workDir, { recursive: true, force: true });
  }

  process.stdout.write(`${renderTable(rows, settings)}\n${renderScaleOut(scaleOut)}`);
  writeReport(settings.out, report(true));
}

function renderScaleOut(rows: ScaleOutRow[]): string {
  if (rows.length === 0) return '';
  const lines = [
    '',
    'Scale-out: one rag sweep run to completion by `verity worker` processes',
    '',
    '| L | worker processes | claims | s | claims/s | LLM calls/s | engine CPU s/LLM call | peak LLM req/1 s | verdicts | failed | requests paid twice | ×1 worker |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.latencyS} s | ${r.workerProcesses} | ${r.claims} | ${r.seconds} | ${r.claimsPerSecond} | ${r.llmCallsPerSecond} | ${r.engineCpuSecondsPerLlmCall ?? '–'} | ${r.peakLlmRequestsPerSecond} | ${r.verdicts} | ${r.failed} | ${r.duplicateRequests} | ${r.toOneWorker ?? '–'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function renderTable(rows: Row[], settings: Settings): string {
  const lines = [
    `R = ${settings.rps} LLM calls/s, C = ${settings.concurrency}, window ${settings.windowS} s after ${settings.warmupS} s warm-up`,
    '',
    '| L | row | method | claims/s | LLM calls/s | LLM calls/claim | tasks/claim | engine CPU s/LLM call | ES CPU s/LLM call | simulator CPU s/LLM call | peak LLM req/1 s | bound (binds) | ×bound | ×raw engine | ×sequential |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|',
  ];
  for (const r of rows) {
    const cell = (value: number | undefined) => (value === undefined ? '–' : String(value));
    lines.push(
      `| ${r.latencyS} s | ${r.kind} | ${r.method} | ${r.claimsPerSecond} | ${r.llmCallsPerSecond} | ${r.llmCallsPerClaim} | ${cell(r.tasksPerClaim)} | ${cell(r.engineCpuSecondsPerLlmCall)} | ${cell(r.esCpuSecondsPerLlmCall)} | ${cell(r.simulatorCpuSecondsPerLlmCall)} | ${r.peakLlmRequestsPerSecond} | ${r.bound ? `${r.bound.claimsPerSecond} (${r.bound.binds})` : '–'} | ${cell(r.toBound)}${r.ratiosBy === 'LLM calls' ? ' (by LLM calls)' : ''} | ${cell(r.toRawEngine)} | ${cell(r.toSequential)} |`,
    );
  }
  return lines.join('\n');
}

runMain(main);
