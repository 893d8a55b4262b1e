/**
 * What both chaos proofs (bench:chaos on one machine, bench:cluster-chaos on the cluster) share:
 * the simulator as a process, counting a run's verdicts, and the invariants read afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Client } from '@elastic/elasticsearch';
import { buildSweepInput } from '../../src/client/start-sweep';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { indexName } from '../../src/es/indices';
import { projectRoot } from '../../src/project-root';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { readRunConfig } from '../../src/runs/read-run-config';
import { RunFailureStore } from '../../src/runs/run-failure-store';
import { RunStore } from '../../src/runs/run-store';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import type { SimRequestRecord } from '../../src/simulator/request-log';
import { analyseDuplicates, type Disruption, type DuplicateAnalysis } from './request-analysis';

export interface SimulatorProcess {
  process: ChildProcess;
  url: string;
}

/** Starts eval/chaos/simulator-process.ts and waits for its base URL. */
export async function startSimulatorProcess(root: string, requestLog: string, latencyMs: number, faults: string, host?: string): Promise<SimulatorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'simulator-process.ts'), requestLog, String(latencyMs), faults, host ?? ''], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
  });
  return { process: child, url };
}

/**
 * Ingests the Wikipedia sample and the recorded web under the config's prefix, and saves the run's
 * manifest: the sweep to start, renamed `<run>-chaos-<stamp>`, and how many verdicts it owes.
 */
export async function prepareChaosRun(es: Client, config: VerityConfig, sweepFile: string, stamp: string, say: (line: string) => void) {
  const prefix = config.elasticsearch.indexPrefix;
  const corpus = path.join(projectRoot(), '..', 'shared', 'data', 'corpus');
  const ingest = await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: path.join(corpus, 'wiki.jsonl') });
  say(`ingested ${ingest.documents} documents into ${indexName(prefix, 'wiki')}`);
  // The recorded web, for the methods that search the web (EMULATE, FIRE, Tool-MAD's search debater).
  const web = await ingestCorpus({ client: es, index: webIndexName(prefix), file: path.join(corpus, 'web_factcheckbench.jsonl'), target: WEB_TARGET });
  say(`ingested ${web.documents} recorded web pages into ${webIndexName(prefix)}`);

  const configured = readRunConfig(sweepFile);
  const run = { ...configured, run: `${configured.run}-chaos-${stamp}` };
  const unsampled = run.datasets.find((dataset) => dataset.sample === undefined);
  if (unsampled) throw new Error(`${sweepFile}: dataset ${unsampled.name} needs a sample (the bench counts verifications from it)`);
  const input = buildSweepInput(config, run, path.dirname(sweepFile));
  await new RunStore(es, indexName(prefix, 'runs')).save(await buildRunManifest(config, run, input));
  const total = run.datasets.reduce((sum, dataset) => sum + dataset.sample!, 0) * run.methods.length * run.models.length;
  return { run, input, total };
}

/** A sweep's final status once it has ended; undefined while it runs or the server does not answer. */
export async function endedStatus(client: { workflow: { getHandle(id: string): { describe(): Promise<{ status: { name: string } }> } } }, workflowId: string): Promise<string | undefined> {
  const status = await client.workflow.getHandle(workflowId).describe().then(
    (d) => d.status.name,
    () => 'UNREACHABLE',
  );
  return status === 'RUNNING' || status === 'UNREACHABLE' ? undefined : status;
}

/** The number of verdicts stored for a run so far (0 while Elasticsearch does not answer). */
export async function countVerdicts(es: Client, prefix: string, runId: string): Promise<number> {
  try {
    return (await es.count({ index: indexName(prefix, 'verdicts'), query: { term: { runId } } })).count;
  } catch {
    return 0;
  }
}

export interface SweepOutcome {
  verdictDocuments: number;
  pairs: number;
  minPerPair: number;
  maxPerPair: number;
  exactlyOnePerPair: boolean;
  failures: number;
  records: SimRequestRecord[];
  chatRequests: number;
  faultedChatRequests: number;
  duplicates: DuplicateAnalysis;
}

export interface Disruptions {
  /** Instants a worker lost its work (a kill, a link cut). */
  kills: Disruption[];
  /** Intervals the Temporal service could not record progress (a restart, its database down). */
  restarts: Disruption[];
  /** Intervals the request cache (Elasticsearch) could not be read or written. */
  cacheOutages: Disruption[];
}

/** Reads a finished run's verdicts, failures and the simulator's request log, and explains every paid request sent twice. */
export async function readSweepOutcome(es: Client, prefix: string, runId: string, total: number, requestLog: string, disruptions: Disruptions): Promise<SweepOutcome> {
  const verdictIndex = indexName(prefix, 'verdicts');
  await es.indices.refresh({ index: verdictIndex });
  const verdicts = await es.search<{ claimId: string; method: string }>({ index: verdictIndex, size: 10_000, query: { term: { runId } }, _source: ['claimId', 'method'] });
  const perPair = new Map<string, number>();
  for (const hit of verdicts.hits.hits) {
    const key = `${hit._source!.claimId}|${hit._source!.method}`;
    perPair.set(key, (perPair.get(key) ?? 0) + 1);
  }
  const counts = [...perPair.values()];
  const failures = await new RunFailureStore(es, indexName(prefix, 'run-failures')).list(runId);
  const records = fs.readFileSync(requestLog, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as SimRequestRecord);
  const chat = records.filter((r) => r.path === '/v1/chat/completions');
  return {
    verdictDocuments: verdicts.hits.hits.length,
    pairs: perPair.size,
    minPerPair: Math.min(...counts),
    maxPerPair: Math.max(...counts),
    exactlyOnePerPair: counts.every((n) => n === 1) && verdicts.hits.hits.length === total,
    failures: failures.length,
    records,
    chatRequests: chat.length,
    faultedChatRequests: chat.filter((r) => r.status === 429 || r.status === 500).length,
    duplicates: analyseDuplicates(records, disruptions.kills, disruptions.restarts, undefined, undefined, disruptions.cacheOutages),
  };
}

/** A proof's checks as lines ("ok" or "FAIL" and what was checked). */
export function checkLines(checks: ReadonlyArray<readonly [string, boolean]>): string[] {
  return checks.map(([what, ok]) => `  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
}

/** Deletes the run's indices (`<prefix>-*`). */
export async function deleteIndicesOf(es: Client, prefix: string): Promise<void> {
  const indices = Object.keys(await es.indices.get({ index: `${prefix}-*` }));
  if (indices.length > 0) await es.indices.delete({ index: indices });
}

/** Runs a proof: exits with its code, or 1 with the stack of what it threw. */
export function runProof(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${name}: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
