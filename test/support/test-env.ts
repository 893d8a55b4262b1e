import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { loadConfig, type VerityConfig } from '../../src/config/config';
import { projectRoot } from '../../src/project-root';

export const DEMO_CORPUS = path.join(projectRoot(), 'eval', 'demo', 'corpus.jsonl');
export const DEMO_CLAIMS = path.join(projectRoot(), 'eval', 'demo', 'claims.jsonl');
export const SHARED_DATA = path.resolve(projectRoot(), '..', 'shared', 'data');

/** A name unique to this test run, usable as index prefix and task queue. */
export function uniqueName(label: string): string {
  return `t-${label}-${randomBytes(4).toString('hex')}`;
}

/** The configuration tests run with: the environment set by the global setup, plus overrides. */
export function testConfig(overrides: Record<string, string> = {}): VerityConfig {
  return loadConfig({ ...process.env, VERITY_LOG_LEVEL: process.env.VERITY_LOG_LEVEL ?? 'warn', ...overrides });
}

/** Deletes the test's indices by name (Elasticsearch 8 refuses wildcard deletes by default). */
export async function deleteIndicesWithPrefix(es: Client, prefix: string): Promise<void> {
  const indices = Object.keys(await es.indices.get({ index: `${prefix}-*`, allow_no_indices: true, ignore_unavailable: true }));
  if (indices.length > 0) await es.indices.delete({ index: indices }, { ignore: [404] });
}
