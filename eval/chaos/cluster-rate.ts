/**
 * One LLM rate cap for all machines (`npm run bench:cluster-rate`, issue 40 item 3): a sweep runs on
 * one `verity worker` per worker machine of the cluster, all with VERITY_LLM_RPS=<cap>, and the
 * simulator's request log (each request with the machine that sent it) shows whether the machines
 * together stayed under the cap: the requests started in any 1, 5 and 10 s window, the mean rate
 * over the busy period, each machine's share, and a table per 10 s window (requests, 429s, the rate
 * the machines were following). The cap is the start schedule all machines share in Elasticsearch
 * (src/llm/shared-schedule.ts); the server's queue limit alone bursts (bench:server-rate-limit).
 *
 * With --provider-rps L the simulator answers 429 above L requests per second (a provider's limit
 * below the cap): the 429 controller (AIMD) cuts the rate all machines follow and raises it step by
 * step; the table shows the machines' combined rate converging below L and recovering after each cut.
 *
 * Exits non-zero when the sweep lost or failed a verification, a machine sent nothing, a machine
 * fell back to pacing alone, or: without --provider-rps, the machines together started more than
 * cap × W requests in a window of W − 250 ms (W = 1, 5, 10 s; 250 ms is the send jitter allowed);
 * with it, the controller never cut or never raised the rate again, or the second half of the run
 * went over L.
 *
 * Needs root and `npm run infra:cluster -- up` first; deletes its indices afterwards.
 *
 * Usage: npm run bench:cluster-rate -- [--rps <cap>] [--provider-rps <L>] [--config <sweep yaml>]
 *   --rps           the cap for all machines together (default 3)
 *   --provider-rps  the simulator answers 429 above this rate (default: never)
 *   --config        the sweep (default eval/sweeps/cluster-rate.yaml)
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureInfra } from '../../infra';
import { startSweep } from '../../src/client/start-sweep';
import { connectTemporal } from '../../src/client/temporal';
import { LlmPacingStore } from '../../src/llm/llm-pacing-store';
import type { SimRequestRecord } from '../../src/simulator/request-log';
import { llmTaskQueue } from '../../src/shared/task-queues';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { projectRoot } from '../../src/project-root';
import { exitWithUsageIfAsked } from '../bench/support/usage';
import { CLUSTER_ES_LOCAL_URL, HOST_IP, clusterEnv, machineAddress, spawnMachineWorker, workerMachines } from './cluster-machines';
import { peakRequests } from './request-analysis';
import { checkLines, deleteIndicesOf, endedStatus, prepareChaosRun, readSweepOutcome, runProof, startSimulatorProcess } from './sweep-outcome';

const ROOT = projectRoot();
const SIM_LATENCY_MS = 250;
const TIMEOUT_MS = 30 * 60_000;
/** A request's arrival at the provider is its start on the schedule plus its send delay, at most this (loaded 2-core host). */
const JITTER_MS = 250;
const TABLE_WINDOW_MS = 10_000;
const FALLBACK_LOG = 'could not reserve on the shared LLM request schedule';

const say = (line: string) => process.stderr.write(`[cluster-rate ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parseArgs(argv: readonly string[]): { rps: number; providerRps?: number; config: string } {
  const options: { rps: number; providerRps?: number; config: string } = { rps: 3, config: path.join(ROOT, 'eval', 'sweeps', 'cluster-rate.yaml') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rps') options.rps = Number(argv[++i]);
    else if (argv[i] === '--provider-rps') options.providerRps = Number(argv[++i]);
    else if (argv[i] === '--config') options.config = path.resolve(argv[++i] ?? '');
    else throw new Error(`unknown option ${argv[i]} (see --help)`);
  }
  if (!(options.rps > 0)) throw new Error('--rps expects a number above 0');
  if (options.providerRps !== undefined && !(options.providerRps > 0)) throw new Error('--provider-rps expects a number above 0');
  return options;
}

/** The rate the machines followed over time: the 429 controller's on the shared schedule, else the cap. */
interface RateSample {
  at: number;
  rate: number;
}

function rateAt(samples: readonly RateSample[], at: number, cap: number): number {
  let rate = cap;
  for (const sample of samples) if (sample.at <= at) rate = sample.rate;
  return rate;
}

/** One line per 10 s window of the busy period: requests, of which 429, their rate, the rate followed at its end. */
function windowTable(chat: readonly SimRequestRecord[], samples: readonly RateSample[], cap: number): string[] {
  const times = chat.map((r) => Date.parse(r.time));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const lines = ['  window      requests  429s  req/s  rate followed (req/s)'];
  for (let from = first; from <= last; from += TABLE_WINDOW_MS) {
    const inWindow = chat.filter((r) => Date.parse(r.time) >= from && Date.parse(r.time) < from + TABLE_WINDOW_MS);
    const refused = inWindow.filter((r) => r.status === 429).length;
    const label = `${Math.round((from - first) / 1000)}-${Math.round((from - first + TABLE_WINDOW_MS) / 1000)} s`;
    lines.push(`  ${label.padEnd(10)}  ${String(inWindow.length).padStart(8)}  ${String(refused).padStart(4)}  ${(inWindow.length / (TABLE_WINDOW_MS / 1000)).toFixed(2).padStart(5)}  ${rateAt(samples, from + TABLE_WINDOW_MS, cap)}`);
  }
  return lines;
}

async function main(): Promise<number> {
  exitWithUsageIfAsked(__filename);
  const { rps, providerRps, config: sweepFile } = parseArgs(process.argv.slice(2));
  const machines = await workerMachines();
  const stamp = Date.now().toString(36);
  const workDir = path.join(ROOT, '.verity', 'cluster-rate', stamp);
  fs.mkdirSync(workDir, { recursive: true });
  const requestLog = path.join(workDir, 'sim-requests.jsonl');
  const simulator = await startSimulatorProcess(ROOT, requestLog, SIM_LATENCY_MS, providerRps !== undefined ? `429:above=${providerRps}` : '', HOST_IP);
  // Warnings on: a machine that falls back to pacing alone says so in its log.
  Object.assign(process.env, clusterEnv(`crate-${stamp}`, simulator.url, workDir, { VERITY_LLM_RPS: String(rps), VERITY_LLM_CONCURRENCY: '16', VERITY_LOG_LEVEL: 'warn' }));
  const config = loadConfig(process.env);
  await ensureInfra(config, { log: (line) => say(line) });
  const es = createEsClient({ ...config.elasticsearch, url: CLUSTER_ES_LOCAL_URL, requestTimeoutMs: 120_000 });
  const prefix = config.elasticsearch.indexPrefix;
  const { run: sweep, input, total } = await prepareChaosRun(es, config, sweepFile, stamp, say);

  const workers: ChildProcess[] = machines.map((machine) => spawnMachineWorker(ROOT, machine, workDir));
  const client = await connectTemporal(config);
  const { handle } = await startSweep(client, config.temporal.taskQueue, input);
  say(`started ${handle.workflowId}: ${total} verifications on ${machines.length} machines, VERITY_LLM_RPS=${rps} on each${providerRps !== undefined ? `, the provider refusing above ${providerRps}/s` : ''}`);
  const started = Date.now();
  const pacing = new LlmPacingStore(es, prefix);
  const llmQueue = llmTaskQueue(config.temporal.taskQueue);
  const samples: RateSample[] = [];
  let finalStatus = '';
  while (Date.now() - started < TIMEOUT_MS) {
    const limit = await pacing.rateLimitOf(llmQueue).catch(() => undefined);
    const rate = limit === undefined ? rps : Math.min(rps, limit);
    if (samples[samples.length - 1]?.rate !== rate) samples.push({ at: Date.now(), rate });
    const ended = await endedStatus(client, handle.workflowId);
    if (ended) {
      finalStatus = ended;
      break;
    }
    await sleep(1_000);
  }
  for (const worker of workers) worker.kill('SIGTERM');
  simulator.process.kill('SIGTERM');
  await sleep(2_000);

  const outcome = await readSweepOutcome(es, prefix, sweep.run, total, requestLog, { kills: [], restarts: [], cacheOutages: [] });
  const chat = outcome.records.filter((r) => r.path === '/v1/chat/completions');
  const times = chat.map((r) => Date.parse(r.time));
  const busySeconds = times.length > 1 ? (Math.max(...times) - Math.min(...times)) / 1000 : 0;
  const peaks = [1, 5, 10].map((seconds) => ({ seconds, peak: peakRequests(chat, seconds * 1000), jittered: peakRequests(chat, seconds * 1000 - JITTER_MS) }));
  const perMachine = machines.map((machine) => ({ machine, requests: chat.filter((r) => r.client === machineAddress(machine)).length }));
  const fallbacks = machines.map((machine) => fs.readFileSync(path.join(workDir, `${machine}.log`), 'utf8').split(FALLBACK_LOG).length - 1);
  const checks: Array<[string, boolean]> = [
    [`sweep completed (status ${finalStatus || 'timeout'}), one verdict per (claim, method) (${outcome.pairs} of ${total}), no failures (${outcome.failures})`, finalStatus === 'COMPLETED' && outcome.exactlyOnePerPair && outcome.failures === 0],
    [`every machine sent requests (${perMachine.map((m) => `${m.machine} ${m.requests}`).join(', ')})`, perMachine.every((m) => m.requests > 0)],
    [`every machine kept to the shared schedule (fallbacks to pacing alone: ${fallbacks.join(', ')})`, fallbacks.every((count) => count === 0)],
  ];
  const sorted = [...times].sort((a, b) => a - b);
  const closest = Math.min(...sorted.slice(1).map((time, i) => time - sorted[i]!));
  if (providerRps === undefined) {
    checks.push([`no two requests closer than 1/R less the send jitter: the closest two ${closest} ms apart (1/R = ${Math.round(1000 / rps)} ms)`, closest >= 1000 / rps - JITTER_MS]);
    for (const { seconds, jittered } of peaks) {
      checks.push([`the machines together stayed under ${rps}/s in ${seconds} s windows: at most ${jittered} requests started within ${seconds * 1000 - JITTER_MS} ms (cap ${Math.ceil(rps * seconds)})`, jittered <= Math.ceil(rps * seconds)]);
    }
  } else {
    const lowest = Math.min(...samples.map((sample) => sample.rate));
    const lowestAt = samples.find((sample) => sample.rate === lowest)!.at;
    const raisedAfter = samples.filter((sample) => sample.at > lowestAt && sample.rate > lowest);
    const secondHalf = chat.filter((r) => Date.parse(r.time) >= Math.min(...times) + (busySeconds * 1000) / 2);
    const secondHalfRate = secondHalf.length / Math.max(1, busySeconds / 2);
    checks.push(
      [`the 429 controller cut the rate all machines follow (lowest ${lowest}/s, ${samples.length - 1} changes)`, lowest < rps],
      [`and raised it again step by step after its lowest (${raisedAfter.map((sample) => sample.rate).join(' → ') || 'never'})`, raisedAfter.length > 0],
      [`the machines together converged below the provider's ${providerRps}/s: ${secondHalfRate.toFixed(2)}/s over the second half (${secondHalf.filter((r) => r.status === 429).length} of ${secondHalf.length} refused)`, secondHalfRate <= providerRps],
    );
  }
  const refused = chat.filter((r) => r.status === 429).length;
  const lines = [
    '',
    `cluster rate cap ${sweep.run} (${handle.workflowId}): ${machines.length} machines, VERITY_LLM_RPS=${rps} on each${providerRps !== undefined ? `; the provider answers 429 above ${providerRps}/s` : ''}`,
    `  LLM requests: ${chat.length} (${refused} answered 429) over ${busySeconds.toFixed(1)} s, mean ${(chat.length / Math.max(1, busySeconds)).toFixed(2)}/s (cap ${rps}/s)`,
    `  most requests started in any window: ${peaks.map((p) => `${p.seconds} s: ${p.peak} (cap ${p.seconds * rps})`).join('; ')}`,
    `  the same within W − ${JITTER_MS} ms (send jitter allowed): ${peaks.map((p) => `${p.seconds} s: ${p.jittered}`).join('; ')}; the closest two requests ${closest} ms apart (1/R = ${Math.round(1000 / rps)} ms)`,
    `  per machine: ${perMachine.map((m) => `${m.machine} ${m.requests} (${((100 * m.requests) / Math.max(1, chat.length)).toFixed(0)}%)`).join(', ')}`,
    `  rate followed: ${samples.map((sample) => `${((sample.at - started) / 1000).toFixed(0)} s: ${sample.rate}`).join(', ')}`,
    '',
    ...(chat.length > 0 ? windowTable(chat, samples, rps) : []),
    '',
    ...checkLines(checks),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  await deleteIndicesOf(es, prefix);
  await es.close();
  await client.connection.close().catch(() => undefined);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}

runProof('cluster-rate', main);
