/**
 * vitest globalSetup of the integration project: real Temporal and Elasticsearch for every test.
 *
 * It uses what answers at TEMPORAL_ADDRESS / ES_URL and starts what does not (see infra/). Started
 * servers are deliberately left running afterwards: the next run is then warm (~0.1 s instead of
 * a cold start), and a developer's own servers are never touched. `npm run infra:down` stops
 * whatever verity started.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureInfra } from '../../infra';
import { loadConfig } from '../../src/config/config';
import { WORKFLOW_BUNDLE_CACHE_ENV } from '../../src/worker/workflow-bundle';

type InfraState = Awaited<ReturnType<typeof ensureInfra>>;
const shared = globalThis as typeof globalThis & { verityTestInfra?: Promise<InfraState> };

export default async function setup(project: TestProject): Promise<() => void> {
  // Both integration projects run this setup in vitest's one main process: start the servers once.
  shared.verityTestInfra ??= ensureInfra(loadConfig(), { log: (line) => process.stderr.write(`[infra] ${line}\n`) });
  const state = await shared.verityTestInfra;
  // Test processes are forked after this, so they inherit the addresses actually in use.
  process.env.TEMPORAL_ADDRESS = state.temporal.address;
  process.env.ES_URL = state.elasticsearch.url;
  project.provide('infra', { temporalAddress: state.temporal.address, esUrl: state.elasticsearch.url });
  // Every test file's workers and replayers (and the verity processes tests spawn) share one bundle
  // of the workflow code instead of each spending seconds of CPU on webpack. Fresh per run: the
  // cache is keyed by paths, and the code may have changed since the last run.
  if (process.env[WORKFLOW_BUNDLE_CACHE_ENV]) return () => {};
  const bundles = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-test-bundles-'));
  process.env[WORKFLOW_BUNDLE_CACHE_ENV] = bundles;
  return () => fs.rmSync(bundles, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    infra: { temporalAddress: string; esUrl: string };
  }
}
