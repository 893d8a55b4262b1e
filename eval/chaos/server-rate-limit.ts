/**
 * What the Temporal server itself enforces of a task queue's rate limit (issue 40 item 3), with no
 * pacer: N workers (distinct identities, as N machines would be) poll one fresh activity queue, each
 * with maxTaskQueueActivitiesPerSecond = R, the limit `verity worker` sets on its LLM queue; one
 * workflow schedules K activities at once; each activity records when it was dispatched to it.
 * Prints the most dispatches in any 1, 5 and 10 s window and the closest two, against R.
 *
 * The server (service/matching, v1.27.2: TaskMatcher.UpdateRatelimit) divides R among the queue's
 * partitions (4 by default) and gives each a token bucket with a burst of max(1, ceil(R/4)), so the
 * queue as a whole may dispatch up to 4 tasks at once; the last poller's R wins.
 *
 * Each worker is a process of its own (the SDK allows one worker per queue and process).
 *
 * Usage: npm run bench:server-rate-limit -- [--address <host:port>] [--rps <R>] [--workers <N>] [--activities <K>]
 *   --address     the Temporal frontend (default TEMPORAL_ADDRESS or 127.0.0.1:7233; the cluster's is 127.0.0.1:7333)
 *   --rps         R (default 0.5)
 *   --workers     N (default 3)
 *   --activities  K (default 20)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { exitWithUsageIfAsked } from '../bench/support/usage';
import { peakInWindow } from './request-analysis';
import { runProof } from './sweep-outcome';

interface Options {
  address: string;
  rps: number;
  workers: number;
  activities: number;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233', rps: 0.5, workers: 3, activities: 20 };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[++i];
    if (argv[i - 1] === '--address') options.address = value ?? '';
    else if (argv[i - 1] === '--rps') options.rps = Number(value);
    else if (argv[i - 1] === '--workers') options.workers = Number(value);
    else if (argv[i - 1] === '--activities') options.activities = Number(value);
    else throw new Error(`unknown option ${argv[i - 1]} (see --help)`);
  }
  if (!(options.rps > 0) || !(options.workers >= 1) || !(options.activities >= 2)) throw new Error('--rps above 0, --workers at least 1, --activities at least 2');
  return options;
}

async function main(): Promise<number> {
  exitWithUsageIfAsked(__filename);
  const { address, rps, workers: count, activities } = parseArgs(process.argv.slice(2));
  const stamp = Date.now().toString(36);
  const workflowQueue = `server-rate-${stamp}`;
  const activityQueue = `${workflowQueue}-act`;
  const dispatches: { worker: number; time: number }[] = [];
  const children = await Promise.all(Array.from({ length: count }, (_, i) => startActivityWorker(address, activityQueue, i + 1, rps, dispatches)));
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({ connection, taskQueue: workflowQueue, workflowsPath: path.join(__dirname, 'workflows', 'dispatch-burst.workflow.ts') });
  const running = worker.run();
  const clientConnection = await Connection.connect({ address });
  try {
    const client = new Client({ connection: clientConnection });
    await client.workflow.execute('dispatchBurstWorkflow', { taskQueue: workflowQueue, workflowId: workflowQueue, args: [activityQueue, activities] });
  } finally {
    worker.shutdown();
    await running;
    for (const child of children) child.kill('SIGTERM');
    await clientConnection.close();
    await connection.close();
  }
  const times = dispatches.map((d) => d.time).sort((a, b) => a - b);
  const closest = Math.min(...times.slice(1).map((time, i) => time - times[i]!));
  const spanSeconds = (times[times.length - 1]! - times[0]!) / 1000;
  const peaks = [1, 5, 10].map((seconds) => ({ seconds, peak: peakInWindow(times, seconds * 1000), cap: Math.ceil(seconds * rps) }));
  const over = peaks.filter((p) => p.peak > p.cap);
  const lines = [
    '',
    `server-side rate limit at ${address}: ${count} workers × maxTaskQueueActivitiesPerSecond=${rps}, ${activities} activities scheduled at once, no pacer`,
    `  dispatches: ${times.length} over ${spanSeconds.toFixed(1)} s, mean ${((times.length - 1) / Math.max(spanSeconds, 1e-3)).toFixed(2)}/s (R = ${rps}/s)`,
    `  most dispatched in any window: ${peaks.map((p) => `${p.seconds} s: ${p.peak} (cap ${p.cap})`).join('; ')}; closest two ${closest} ms apart (1/R = ${Math.round(1000 / rps)} ms)`,
    `  per worker: ${Array.from({ length: count }, (_, i) => `machine-${i + 1} ${dispatches.filter((d) => d.worker === i + 1).length}`).join(', ')}`,
    `  first 10 dispatches (s after the first): ${times.slice(0, 10).map((t) => ((t - times[0]!) / 1000).toFixed(2)).join(' ')}`,
    over.length > 0 ? `  the server alone went over R in ${over.map((p) => `${p.seconds} s`).join(', ')} windows` : '  the server alone stayed within R in every window',
    '',
  ];
  process.stdout.write(lines.join('\n'));
  return 0;
}

/** One activity worker process (this script with --serve); resolves once it polls, and records each dispatch it prints. */
function startActivityWorker(address: string, queue: string, index: number, rps: number, dispatches: { worker: number; time: number }[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--serve', address, queue, String(index), String(rps)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'polling') resolve(child);
      const dispatched = /^dispatched (\d+)$/.exec(line);
      if (dispatched) dispatches.push({ worker: index, time: Number(dispatched[1]) });
    });
    child.once('exit', (code) => reject(new Error(`activity worker ${index} exited (${code})`)));
  });
}

/** --serve <address> <queue> <index> <rps>: the activity worker, printing `dispatched <epoch ms>` per activity. */
async function serve([address, queue, index, rps]: string[]): Promise<void> {
  const connection = await NativeConnection.connect({ address: address! });
  const worker = await Worker.create({
    connection,
    taskQueue: queue!,
    identity: `machine-${index}@server-rate-limit`,
    maxTaskQueueActivitiesPerSecond: Number(rps),
    activities: { dispatched: async () => void process.stdout.write(`dispatched ${Date.now()}\n`) },
  });
  process.once('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  process.stdout.write('polling\n');
  await running;
  await connection.close();
}

if (require.main === module) {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  if (process.argv[2] === '--serve') void serve(process.argv.slice(3)).then(() => process.exit(0));
  else runProof('server-rate-limit', main);
}
