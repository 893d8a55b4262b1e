import { execFileSync } from 'node:child_process';
import { datasetFileHash } from '../datasets';
import type { VerityConfig } from '../config/config';
import { projectRoot } from '../project-root';
import type { SweepInput } from '../shared/sweep';
import type { RunConfig, RunManifest } from './run-manifest';

/** The commit of the code that runs, `unknown` outside a git checkout. */
export function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: projectRoot(), stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

/** A new run's manifest: its config (dataset files resolved), dataset hashes, code and model ids. */
export async function buildRunManifest(config: VerityConfig, run: RunConfig, input: SweepInput, now = new Date()): Promise<RunManifest> {
  const datasets = run.datasets.map((dataset, i) => ({ ...dataset, file: input.datasets[i]?.file ?? dataset.file }));
  const datasetHashes: Record<string, string> = {};
  for (const dataset of datasets) datasetHashes[dataset.file] = await datasetFileHash(dataset.file);
  return {
    schemaVersion: 1,
    runId: run.run,
    config: { ...run, datasets: datasets.map((dataset) => ({ ...dataset, sha256: datasetHashes[dataset.file] })) },
    status: 'running',
    gitCommit: gitCommit(),
    datasetHashes,
    modelIds: [...new Set([...run.models, ...Object.values(config.llm.models)])],
    promptVersions: [],
    llmProvider: config.llm.provider,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}
