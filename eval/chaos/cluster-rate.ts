/**
 * One LLM rate cap for all machines (`npm run bench:cluster-rate`, issue 40 item 3): a sweep runs on
 * one `verity worker` per worker machine of the cluster, all with VERITY_LLM_RPS=<cap>, and the
 * simulator's request log (each request with the machine that sent it) shows whether the machines
 * together stayed under the cap: the requests started in any 1, 5 and 10 s window, the mean rate
 * over the busy period, and each machine's share. The cap is the LLM task queue's rate limit, which
 * the Temporal server enforces for all pollers together, plus each process's pacer at its share.
 * Exits non-zero when the machines together went over the cap (10 s windows, 10% slack) or a
 * machine sent nothing.
 *
 * Needs root and `npm run infra:cluster -- up` first; deletes its indices afterwards.
 *
 * Usage: npm run bench:cluster-rate -- [--rps <cap>] [--config <sweep yaml>]
 *   --rps     the cap for all machines together (default 3)
 *   --config  the sweep (default eval/sweeps/cluster-rate.yaml)
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureInfra } from '../../infra';
import { startSweep } from '../../src/client/start-sweep';
import { connectTemporal } from '../../src/client/temporal';
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
const SLACK = 1.1;

const say = (line: string) => process.stderr.write(`[cluster-rate ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parseArgs(argv: readonly string[]): { rps: number; config: string } {
  const options = { rps: 3, config: path.join(ROOT, 'eval', 'sweeps', 'cluster-rate.yaml') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rps') options.rps = Number(argv[++i]);
    else if (argv[i] === '--config') options.config = path.resolve(argv[++i] ?? '');
    else throw new Error(`unknown option ${argv[i]} (see --help)`);
  }
  if (!(options.rps > 0)) throw new Error('--rps expects a number above 0');
  return options;
}

async function main(): Promise<number> {
  exitWithUsageIfAsked(__filename);
  const { rps, config: sweepFile } = parseArgs(process.argv.slice(2));
  const machines = await workerMachines();
  const stamp = Date.now().toString(36);
  const workDir = path.join(ROOT, '.verity', 'cluster-rate', stamp);
  fs.mkdirSync(workDir, { recursive: true });
  const requestLog = path.join(workDir, 'sim-requests.jsonl');
  const simulator = await startSimulatorProcess(ROOT, requestLog, SIM_LATENCY_MS, '', HOST_IP);
  Object.assign(process.env, clusterEnv(`crate-${stamp}`, simulator.url, workDir, { VERITY_LLM_RPS: String(rps), VERITY_LLM_CONCURRENCY: '16' }));
  const config = loadConfig(process.env);
  await ensureInfra(config, { log: (line) => say(line) });
  const es = createEsClient({ ...config.elasticsearch, url: CLUSTER_ES_LOCAL_URL, requestTimeoutMs: 120_000 });
  const prefix = config.elasticsearch.indexPrefix;
  const { run: sweep, input, total } = await prepareChaosRun(es, config, sweepFile, stamp, say);

  const workers: ChildProcess[] = machines.map((machine) => spawnMachineWorker(ROOT, machine, workDir));
  const client = await connectTemporal(config);
  const { handle } = await startSweep(client, config.temporal.taskQueue, input);
  say(`started ${handle.workflowId}: ${total} verifications on ${machines.length} machines, VERITY_LLM_RPS=${rps} on each`);
  const started = Date.now();
  let finalStatus = '';
  while (Date.now() - started < TIMEOUT_MS) {
    const ended = await endedStatus(client, handle.workflowId);
    if (ended) {
      finalStatus = ended;
      break;
    }
    await sleep(2_000);
  }
  for (const worker of workers) worker.kill('SIGTERM');
  simulator.process.kill('SIGTERM');
  await sleep(2_000);

  const outcome = await readSweepOutcome(es, prefix, sweep.run, total, requestLog, { kills: [], restarts: [], cacheOutages: [] });
  const chat = outcome.records.filter((r) => r.path === '/v1/chat/completions');
  const times = chat.map((r) => Date.parse(r.time));
  const busySeconds = times.length > 1 ? (Math.max(...times) - Math.min(...times)) / 1000 : 0;
  const peaks = [1, 5, 10].map((seconds) => ({ seconds, peak: peakRequests(chat, seconds * 1000) }));
  const perMachine = machines.map((machine) => ({ machine, requests: chat.filter((r) => r.client === machineAddress(machine)).length }));
  const peak10 = peaks.find((p) => p.seconds === 10)!.peak;
  const checks: Array<[string, boolean]> = [
    [`sweep completed (status ${finalStatus || 'timeout'}), one verdict per (claim, method) (${outcome.pairs} of ${total}), no failures (${outcome.failures})`, finalStatus === 'COMPLETED' && outcome.exactlyOnePerPair && outcome.failures === 0],
    [`every machine sent requests (${perMachine.map((m) => `${m.machine} ${m.requests}`).join(', ')})`, perMachine.every((m) => m.requests > 0)],
    [`the machines together stayed under ${rps}/s: at most ${peak10} requests started in any 10 s (cap ${rps * 10}, ${Math.round((SLACK - 1) * 100)}% slack)`, peak10 <= rps * 10 * SLACK],
  ];
  const lines = [
    '',
    `cluster rate cap ${sweep.run} (${handle.workflowId}): ${machines.length} machines, VERITY_LLM_RPS=${rps} on each`,
    `  LLM requests: ${chat.length} over ${busySeconds.toFixed(1)} s, mean ${(chat.length / Math.max(1, busySeconds)).toFixed(2)}/s (cap ${rps}/s)`,
    `  most requests started in any window: ${peaks.map((p) => `${p.seconds} s: ${p.peak} (cap ${p.seconds * rps})`).join('; ')}`,
    `  per machine: ${perMachine.map((m) => `${m.machine} ${m.requests} (${((100 * m.requests) / Math.max(1, chat.length)).toFixed(0)}%)`).join(', ')}`,
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
