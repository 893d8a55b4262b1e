/**
 * The cluster's side of the cluster proofs (bench:cluster-chaos, bench:cluster-rate): its worker
 * machines (the network namespaces `npm run infra:cluster -- up` made), the settings every machine
 * and the bench share, and a `verity worker` started inside a machine.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

export const HOST_IP = '10.77.0.1';
export const CLUSTER_ES_PASSWORD = process.env.VERITY_CLUSTER_ES_PASSWORD ?? 'verity-cluster';
/** The coordinating node, as the bench itself reads it (the machines reach it on the bridge). */
export const CLUSTER_ES_LOCAL_URL = 'http://127.0.0.1:9401';

/** The worker machines (vcw1..N), refusing when there is no cluster or not root. */
export async function workerMachines(): Promise<string[]> {
  if (process.getuid?.() !== 0) throw new Error('needs root (ip netns, ip link, runuser): the cluster is root-made');
  const { stdout } = await promisify(execFile)('ip', ['netns', 'list']);
  const machines = stdout
    .split('\n')
    .map((line) => line.split(' ')[0]!)
    .filter((name) => /^vcw\d+$/.test(name))
    .sort();
  if (machines.length < 2) throw new Error('no cluster: run `npm run infra:cluster -- up` first (needs at least two worker machines)');
  return machines;
}

/** The machine's address on the bridge (cluster.sh's worker_ip). */
export const machineAddress = (machine: string) => `10.77.0.${10 + Number(machine.replace('vcw', ''))}`;

/**
 * The same settings on every machine and in the bench (the task queue derives from them): the
 * cluster's Temporal and Elasticsearch through the bridge, a fresh prefix and queue, the simulator.
 */
export function clusterEnv(name: string, simulatorUrl: string, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: `${HOST_IP}:7333`,
    ES_URL: `http://${HOST_IP}:9401`,
    ES_USERNAME: 'elastic',
    ES_PASSWORD: CLUSTER_ES_PASSWORD,
    VERITY_ES_REPLICAS: '1',
    ES_INDEX_PREFIX: name,
    TEMPORAL_TASK_QUEUE: name,
    OPENAI_BASE_URL: simulatorUrl,
    OPENAI_API_KEY: 'sk-chaos',
    VERITY_LOG_LEVEL: 'error',
    VERITY_DATA_DIR: dataDir,
    ...extra,
  };
}

/** `verity worker` inside a machine's namespace, with its own data directory and log under `dataDir`. */
export function spawnMachineWorker(root: string, machine: string, dataDir: string): ChildProcess {
  const log = fs.openSync(path.join(dataDir, `${machine}.log`), 'a');
  return spawn('ip', ['netns', 'exec', machine, process.execPath, '--import', 'tsx', path.join(root, 'src', 'worker', 'main.ts')], {
    cwd: root,
    env: { ...process.env, VERITY_DATA_DIR: path.join(dataDir, machine) },
    stdio: ['ignore', log, log],
  });
}
