/**
 * A local single-node Elasticsearch started from a distribution archive (no Docker).
 *
 * The default archive is the "integ-test-zip" distribution from Maven Central: reachable from
 * build machines without internet, small (107 MB), no bundled JDK (Java >= 17 is required). It has
 * BM25 (standard analyzer), dense_vector and kNN, security (disabled here) — but it lacks the
 * analysis-common module (no `english` analyzer, no stemmer/stop filters), painless, reindex (no
 * _delete_by_query/_update_by_query/_reindex) and rest-root (`GET /` answers 405, so reachability
 * is probed with `/_cluster/health`). Index mappings must stay within that subset. The official
 * tarball (fallback for machines with internet) has all of it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import extractZip from 'extract-zip';
import type { VerityConfig } from '../src/config/config';
import { isSecuredOrRemote } from '../src/config/es-connection';
import { describeEsAccessError } from '../src/es/access-errors';
import { clusterHealth, createEsClient, probeElasticsearch } from '../src/es/client';
import {
  type InfraLog,
  download,
  elapsedMs,
  findOnPath,
  hostPortOfUrl,
  isPortOpen,
  livePid,
  run,
  silentLog,
  sleep,
  tailFile,
  waitUntil,
} from './support';

export const ES_VERSION = '8.19.21';
export const ES_ARCHIVE_URLS = [
  `https://repo1.maven.org/maven2/org/elasticsearch/distribution/integ-test-zip/elasticsearch/${ES_VERSION}/elasticsearch-${ES_VERSION}.zip`,
  `https://artifacts.elastic.co/downloads/elasticsearch/elasticsearch-${ES_VERSION}-linux-x86_64.tar.gz`,
];
/** Elasticsearch refuses to run as root; as root we run it as this system user. */
export const ES_SYSTEM_USER = 'verity-es';
export const MIN_JAVA_MAJOR = 17;

const START_TIMEOUT_MS = 120_000;
const MEMORY_MARGIN_MB = 512;

export interface EsLayout {
  /** The unpacked distribution (ES_HOME), shared by all nodes of this version. */
  home: string;
  /** Per-port node directory holding config/, data/, logs/ and the pid file. */
  nodeDir: string;
  configDir: string;
  dataDir: string;
  logsDir: string;
  pidFile: string;
  downloadsDir: string;
  /** Set when the node must run as another user (we are root). */
  runAs?: string;
}

/**
 * As root, everything lives under /var/lib/verity: the project dir may sit below a 0700
 * directory that the unprivileged ES user cannot traverse.
 */
export function esLayout(dataDir: string, port: number, isRoot = process.getuid?.() === 0): EsLayout {
  const base = isRoot ? path.join('/var/lib/verity', `elasticsearch-${ES_VERSION}`) : path.join(dataDir, 'elasticsearch');
  const nodeDir = path.join(base, `node-${port}`);
  return {
    home: path.join(base, `elasticsearch-${ES_VERSION}`),
    nodeDir,
    configDir: path.join(nodeDir, 'config'),
    dataDir: path.join(nodeDir, 'data'),
    logsDir: path.join(nodeDir, 'logs'),
    pidFile: path.join(nodeDir, 'elasticsearch.pid'),
    downloadsDir: path.join(dataDir, 'downloads'),
    runAs: isRoot ? ES_SYSTEM_USER : undefined,
  };
}

export interface EsEnsureResult {
  url: string;
  state: 'running' | 'started';
  pid?: number;
  home?: string;
  javaHome?: string;
  durationMs: number;
}

/**
 * Uses the Elasticsearch at config.elasticsearch.url, or starts a local unsecured node there, but
 * only when nothing secured or remote is configured: a configured cluster that does not answer is
 * reported, never replaced by a local node.
 */
export async function ensureElasticsearch(config: VerityConfig, log: InfraLog = silentLog, healthWait: HealthWait = HEALTH_WAIT): Promise<EsEnsureResult> {
  const startedAt = Date.now();
  const { url } = config.elasticsearch;
  const probe = await probeElasticsearch(config.elasticsearch);
  if (probe.state === 'up') {
    log(`elasticsearch: using the node at ${url}`);
    if (probe.health === 'red' && !isSecuredOrRemote(config.elasticsearch)) await waitForAssignedPrimaries(config, log, healthWait);
    return { url, state: 'running', durationMs: elapsedMs(startedAt) };
  }
  if (probe.state === 'refused') throw new Error(describeEsAccessError(probe.status, probe.message, config.elasticsearch));
  if (isSecuredOrRemote(config.elasticsearch)) {
    throw new Error(
      `the configured Elasticsearch at ${url} does not answer (${probe.reason}); verity starts a local node only when ` +
        'ES_URL is a plain http URL on this machine and no ES_CLOUD_ID, ES_API_KEY, ES_USERNAME or ES_CA_* is set',
    );
  }
  const { host, port } = hostPortOfUrl(url);
  if (await isPortOpen({ host, port })) {
    // A busy node may miss the quick probe: ask once more, patiently, before calling it something else.
    const patient = await probeElasticsearch(config.elasticsearch, 15_000);
    if (patient.state === 'up') {
      if (patient.health === 'red') await waitForAssignedPrimaries(config, log, healthWait);
      return { url, state: 'running', durationMs: elapsedMs(startedAt) };
    }
    throw new Error(`port ${port} on ${host} (ES_URL ${url}) is taken by something that is not Elasticsearch`);
  }
  assertEnoughMemory(config.elasticsearch.heapMb);
  const javaHome = await resolveJavaHome(config);
  const layout = esLayout(config.dataDir, port);
  await installDistribution(layout, log);
  await prepareNode(layout, port);
  const pid = await startNode(config, layout, javaHome, log);
  return { url, state: 'started', pid, home: layout.home, javaHome, durationMs: elapsedMs(startedAt) };
}

/** How long `ensureElasticsearch` waits for a red local node: at most `timeoutMs`, and only while shards keep being assigned (`stallMs`). */
export interface HealthWait {
  timeoutMs: number;
  stallMs: number;
}

const HEALTH_WAIT: HealthWait = { timeoutMs: START_TIMEOUT_MS, stallMs: 10_000 };

/**
 * A local node that answers red may still be recovering its shards (just started, by `infra up` in
 * another shell): searches then fail with no_shard_available. Wait while its shards are being
 * assigned; a node that stays red without progress (a broken index) is reported and used anyway.
 */
async function waitForAssignedPrimaries(config: VerityConfig, log: InfraLog, wait: HealthWait): Promise<void> {
  const { url } = config.elasticsearch;
  const client = createEsClient({ ...config.elasticsearch, requestTimeoutMs: 2_000 });
  try {
    const deadline = Date.now() + wait.timeoutMs;
    let lastProgressAt = Date.now();
    let lastActive = -1;
    log(`elasticsearch: the node at ${url} is still assigning its shards (health red); waiting`);
    for (;;) {
      const health = await client.cluster.health().catch(() => undefined);
      if (health && health.status !== 'red') return;
      const active = health ? health.active_shards + health.initializing_shards : lastActive;
      if (active !== lastActive || (health?.initializing_shards ?? 0) > 0) lastProgressAt = Date.now();
      lastActive = active;
      const stalled = Date.now() - lastProgressAt >= wait.stallMs;
      if (stalled || Date.now() >= deadline) {
        const why = stalled ? `no shard was assigned for ${Math.round(wait.stallMs / 1000)}s` : `after ${Math.round(wait.timeoutMs / 1000)}s`;
        log(`elasticsearch: the node at ${url} is still red (${why}; see GET ${url}/_cluster/allocation/explain); going on`);
        return;
      }
      await sleep(500);
    }
  } finally {
    await client.close();
  }
}

async function primariesAssigned(config: VerityConfig): Promise<boolean> {
  return ['green', 'yellow'].includes((await clusterHealth(config.elasticsearch)) ?? '');
}

export function assertEnoughMemory(heapMb: number, freeBytes = os.freemem()): void {
  const freeMb = Math.floor(freeBytes / 1024 / 1024);
  if (freeMb < heapMb + MEMORY_MARGIN_MB) {
    throw new Error(
      `too little free memory for Elasticsearch: ${freeMb} MB free, need ${heapMb} MB heap + ${MEMORY_MARGIN_MB} MB; ` +
        'lower VERITY_ES_HEAP_MB or free memory',
    );
  }
}

/** Major version from `java -version` output: `version "17.0.15"` → 17, `version "1.8.0_292"` → 8. */
export function parseJavaMajor(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(versionOutput);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

/** Java homes to try, in order: ES_JAVA_HOME, JAVA_HOME, the home of `java` on PATH. */
export function javaHomeCandidates(config: VerityConfig, env = process.env): Array<{ source: string; home: string }> {
  const candidates: Array<{ source: string; home: string }> = [];
  if (config.elasticsearch.javaHome) candidates.push({ source: 'ES_JAVA_HOME', home: config.elasticsearch.javaHome });
  if (env.JAVA_HOME) candidates.push({ source: 'JAVA_HOME', home: env.JAVA_HOME });
  const java = findOnPath('java', env.PATH);
  if (java) candidates.push({ source: `java on PATH (${java})`, home: path.dirname(path.dirname(fs.realpathSync(java))) });
  return candidates;
}

export async function resolveJavaHome(config: VerityConfig): Promise<string> {
  const rejected: string[] = [];
  for (const { source, home } of javaHomeCandidates(config)) {
    const problem = await javaProblem(home);
    if (!problem) return home;
    rejected.push(`${source} → ${home}: ${problem}`);
  }
  const tried = rejected.length > 0 ? `tried:\n  - ${rejected.join('\n  - ')}` : 'ES_JAVA_HOME and JAVA_HOME are unset and there is no java on PATH';
  throw new Error(
    `Elasticsearch ${ES_VERSION} needs Java >= ${MIN_JAVA_MAJOR}; ${tried}\n` +
      'Install a JDK >= 17 (e.g. apt-get install openjdk-17-jre-headless) and/or set ES_JAVA_HOME.',
  );
}

async function javaProblem(home: string): Promise<string | undefined> {
  const java = path.join(home, 'bin', 'java');
  if (!fs.existsSync(java)) return `no ${java}`;
  try {
    const { stderr, stdout } = await run(java, ['-version'], { timeoutMs: 30_000 });
    const major = parseJavaMajor(stderr + stdout);
    if (major === undefined) return 'cannot read the version from `java -version`';
    return major >= MIN_JAVA_MAJOR ? undefined : `Java ${major} is too old`;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Downloads (cached in <dataDir>/downloads) and unpacks the distribution unless already there. */
export async function installDistribution(layout: EsLayout, log: InfraLog): Promise<void> {
  if (fs.existsSync(path.join(layout.home, 'bin', 'elasticsearch'))) return;
  const archive = await downloadArchive(layout.downloadsDir, log);
  const parent = path.dirname(layout.home);
  const staging = path.join(parent, `.unpack-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  log(`elasticsearch: unpacking ${path.basename(archive)} into ${layout.home}`);
  if (archive.endsWith('.zip')) await extractZip(archive, { dir: staging });
  else await run('tar', ['-xzf', archive, '-C', staging]);
  fs.renameSync(path.join(staging, `elasticsearch-${ES_VERSION}`), layout.home);
  fs.rmSync(staging, { recursive: true, force: true });
}

async function downloadArchive(downloadsDir: string, log: InfraLog): Promise<string> {
  const failures: string[] = [];
  for (const url of ES_ARCHIVE_URLS) {
    const file = path.join(downloadsDir, path.basename(url));
    if (fs.existsSync(file)) return file;
    log(`elasticsearch: downloading ${url}`);
    try {
      await download(url, file, undefined, { label: `elasticsearch download ${path.basename(url)}` });
      return file;
    } catch (err) {
      failures.push(`${url}: ${(err as Error).message}`);
    }
  }
  throw new Error(`cannot download Elasticsearch ${ES_VERSION}:\n  - ${failures.join('\n  - ')}`);
}

/**
 * xpack.* settings are registered by x-pack-core (both are accepted by the integ-test-zip, which has
 * no ML module at all); a distribution without x-pack-core would refuse them as unknown settings.
 */
function xpackSettings(home: string): Record<string, boolean> {
  if (!fs.existsSync(path.join(home, 'modules', 'x-pack-core'))) return {};
  return { 'xpack.security.enabled': false, 'xpack.ml.enabled': false };
}

export function renderElasticsearchYml(options: {
  port: number;
  dataDir: string;
  logsDir: string;
  extra?: Record<string, boolean | string | number>;
}): string {
  const settings: Record<string, boolean | string | number> = {
    'cluster.name': 'verity',
    'node.name': 'verity-1',
    'discovery.type': 'single-node',
    'network.host': '127.0.0.1',
    'http.port': options.port,
    'path.data': options.dataDir,
    'path.logs': options.logsDir,
    ...options.extra,
  };
  return `${Object.entries(settings)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n')}\n`;
}

/** Writes the node's config dir (a copy of the distribution's, plus our elasticsearch.yml). */
async function prepareNode(layout: EsLayout, port: number): Promise<void> {
  if (!fs.existsSync(layout.configDir)) fs.cpSync(path.join(layout.home, 'config'), layout.configDir, { recursive: true });
  fs.mkdirSync(layout.dataDir, { recursive: true });
  fs.mkdirSync(layout.logsDir, { recursive: true });
  const yml = renderElasticsearchYml({ port, dataDir: layout.dataDir, logsDir: layout.logsDir, extra: xpackSettings(layout.home) });
  fs.writeFileSync(path.join(layout.configDir, 'elasticsearch.yml'), yml);
  if (layout.runAs) {
    await ensureSystemUser(layout.runAs);
    fs.chmodSync(path.dirname(path.dirname(layout.home)), 0o755);
    await run('chown', ['-R', `${layout.runAs}:`, path.dirname(layout.home)]);
  }
}

export async function ensureSystemUser(user: string): Promise<void> {
  try {
    await run('id', ['-u', user]);
  } catch {
    await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', user]);
  }
}

export function esJavaOpts(heapMb: number): string {
  return `-Xms${heapMb}m -Xmx${heapMb}m`;
}

/** Starts the node daemonized (`-d -p pidfile`) and waits for health green or yellow. */
export async function startNode(
  config: VerityConfig,
  layout: EsLayout,
  javaHome: string,
  log: InfraLog,
  timeoutMs = START_TIMEOUT_MS,
): Promise<number> {
  const { url, heapMb } = config.elasticsearch;
  log(`elasticsearch: starting ${ES_VERSION} at ${url} (heap ${heapMb} MB, Java ${javaHome}${layout.runAs ? `, user ${layout.runAs}` : ''})`);
  const command = [path.join(layout.home, 'bin', 'elasticsearch'), '-d', '-p', layout.pidFile];
  const [file, ...args] = layout.runAs ? ['runuser', '-u', layout.runAs, '--', ...command] : command;
  const env = { ...process.env, ES_JAVA_HOME: javaHome, ES_PATH_CONF: layout.configDir, ES_JAVA_OPTS: esJavaOpts(heapMb) };
  const logFile = path.join(layout.logsDir, 'verity.log');
  try {
    await run(file as string, args, { env, cwd: layout.home, timeoutMs });
  } catch (err) {
    throw new Error(`Elasticsearch failed to start: ${(err as Error).message}\nlast lines of ${logFile}:\n${tailFile(logFile)}`);
  }
  const healthy = await waitUntil(() => primariesAssigned(config), timeoutMs, 500);
  const pid = livePid(layout.pidFile);
  if (!healthy || pid === undefined) {
    throw new Error(`Elasticsearch did not become healthy within ${timeoutMs / 1000}s; last lines of ${logFile}:\n${tailFile(logFile)}`);
  }
  return pid;
}

export interface EsStatus {
  url: string;
  reachable: boolean;
  health?: string;
  version?: string;
  /** Pid of the node verity started (from its pid file), when it is alive. */
  pid?: number;
  /** The pinned distribution, when it is unpacked locally. */
  distribution?: { version: string; home: string };
}

export async function nodeVersion(connection: VerityConfig['elasticsearch']): Promise<string | undefined> {
  const client = createEsClient({ ...connection, requestTimeoutMs: 2_000 });
  try {
    const body = await client.nodes.info({ node_id: '_local', filter_path: 'nodes.*.version' });
    return Object.values(body.nodes ?? {})[0]?.version;
  } catch {
    return undefined;
  } finally {
    await client.close();
  }
}

export async function elasticsearchStatus(config: VerityConfig): Promise<EsStatus> {
  const { url } = config.elasticsearch;
  const layout = esLayout(config.dataDir, hostPortOfUrl(url).port);
  const health = await clusterHealth(config.elasticsearch);
  return {
    url,
    reachable: health !== undefined,
    health,
    version: await nodeVersion(config.elasticsearch),
    pid: livePid(layout.pidFile),
    distribution: fs.existsSync(layout.home) ? { version: ES_VERSION, home: layout.home } : undefined,
  };
}

export function elasticsearchPidFile(config: VerityConfig): string {
  return esLayout(config.dataDir, hostPortOfUrl(config.elasticsearch.url).port).pidFile;
}
