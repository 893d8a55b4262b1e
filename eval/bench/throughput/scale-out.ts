/**
 * bench:throughput's scale-out rows: one finite rag sweep served by N `verity worker` processes
 * (src/worker/main.ts, each its own process), run to completion for N = 1 and N = 2 side by side.
 * Per row: claims/s from the first LLM call to the sweep's end, engine CPU (Temporal server + the
 * worker processes) per LLM call, and the checks that nothing was lost or done twice: one verdict
 * per claim, no failure, every chat request hash paid once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { buildSweepInput, startSweep } from '../../../src/client/start-sweep';
import type { VerityConfig } from '../../../src/config/config';
import type { createEsClient } from '../../../src/es/client';
import { indexName } from '../../../src/es/indices';
import { projectRoot } from '../../../src/project-root';
import { runConfigSchema } from '../../../src/runs/run-manifest';
import type { SimRequestRecord } from '../../../src/simulator/request-log';
import { peakInWindow, processCpuSeconds, round } from './figures';

export interface ScaleOutRow {
  latencyS: number;
  kind: 'scale-out';
  method: 'rag';
  workerProcesses: number;
  claims: number;
  seconds: number;
  claimsPerSecond: number;
  llmCallsPerSecond: number;
  engineCpuSecondsPerLlmCall?: number;
  peakLlmRequestsPerSecond: number;
  verdicts: number;
  failed: number;
  /** Chat request hashes the simulator received more than once (work paid twice). */
  duplicateRequests: number;
  /** Times the scale-out to one worker process (set on the rows after the first). */
  toOneWorker?: number;
}

export interface ScaleOutContext {
  latencyS: number;
  claims: number;
  concurrency: number;
  /** The environment the in-process config was loaded from: the worker processes get the same, so the same task queue. */
  env: Record<string, string | undefined>;
  config: VerityConfig;
  client: Client;
  es: ReturnType<typeof createEsClient>;
  serverPid: number | undefined;
  requests(): SimRequestRecord[];
  writeClaims(runId: string, count: number): string;
  workDir: string;
  say(line: string): void;
}

const ROOT = projectRoot();

function startWorkerProcess(env: Record<string, string | undefined>, logFile: string): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  const definedEnv = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'worker', 'main.ts')], { cwd: ROOT, env: definedEnv, stdio: ['ignore', log, log] });
}

async function stopWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

export async function scaleOutRow(context: ScaleOutContext, workerProcesses: number, stamp: string): Promise<ScaleOutRow> {
  const { config, client, es, latencyS } = context;
  const runId = `tp-${stamp}-scale-${workerProcesses}w-${String(latencyS).replace('.', '_')}`;
  const workers = Array.from({ length: workerProcesses }, (_, i) => startWorkerProcess(context.env, path.join(context.workDir, `${runId}-worker-${i}.log`)));
  try {
    const run = runConfigSchema.parse({
      run: runId,
      datasets: [{ name: 'throughput', file: context.writeClaims(runId, context.claims), format: 'verity' }],
      methods: ['rag'],
      models: ['gpt-4o-mini'],
      concurrency: context.concurrency,
    });
    const since = Date.now();
    const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, context.workDir));
    const cpu = () => {
      const parts = [context.serverPid, ...workers.map((w) => w.pid)].map((pid) => (pid === undefined ? undefined : processCpuSeconds(pid)));
      return parts.some((part) => part === undefined) ? undefined : parts.reduce((sum, part) => sum! + part!, 0);
    };
    const cpuBefore = cpu();
    const progress = await handle.result();
    const cpuAfter = cpu();
    const chats = context.requests().filter((r) => r.path.endsWith('/chat/completions') && Date.parse(r.time) >= since);
    const arrivals = chats.map((r) => Date.parse(r.time));
    const firstCall = Math.min(...arrivals);
    const seconds = (Date.now() - firstCall) / 1000;
    const hashes = new Map<string, number>();
    for (const r of chats) hashes.set(r.requestHash, (hashes.get(r.requestHash) ?? 0) + 1);
    const verdictIndex = indexName(config.elasticsearch.indexPrefix, 'verdicts');
    await es.indices.refresh({ index: verdictIndex });
    const verdicts = (await es.count({ index: verdictIndex, query: { term: { runId } } })).count;
    const row: ScaleOutRow = {
      latencyS,
      kind: 'scale-out',
      method: 'rag',
      workerProcesses,
      claims: progress.done,
      seconds: round(seconds, 1),
      claimsPerSecond: round(progress.done / seconds),
      llmCallsPerSecond: round(chats.length / seconds),
      ...(cpuBefore !== undefined && cpuAfter !== undefined && chats.length > 0 ? { engineCpuSecondsPerLlmCall: round((cpuAfter - cpuBefore) / chats.length, 4) } : {}),
      peakLlmRequestsPerSecond: peakInWindow(arrivals),
      verdicts,
      failed: progress.failed,
      duplicateRequests: [...hashes.values()].filter((n) => n > 1).length,
    };
    context.say(`scale-out with ${workerProcesses} worker process(es): ${row.claims} claims in ${row.seconds} s, ${row.verdicts} verdicts, ${row.failed} failed, ${row.duplicateRequests} requests paid twice`);
    return row;
  } finally {
    await Promise.all(workers.map(stopWorkerProcess));
  }
}
