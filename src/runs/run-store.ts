import type { Client } from '@elastic/elasticsearch';
import { ensureIndex } from '../es/ensure-index';
import { indexName } from '../es/indices';
import { RUNS_INDEX } from './run-indices';
import { type RunManifest, runManifestSchema, type RunStatus } from './run-manifest';

/** Run manifests in `<prefix>-runs`, `_id` = run id. */
export class RunStore {
  private ready = false;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  async get(runId: string): Promise<RunManifest | undefined> {
    // Elasticsearch answers a GET without an id with a 405 and a JSON page, not a 404.
    if (runId === '') return undefined;
    await this.ensureIndex();
    const response = await this.client.get({ index: this.index, id: runId }, { ignore: [404] });
    return response.found ? runManifestSchema.parse(response._source) : undefined;
  }

  async save(manifest: RunManifest): Promise<void> {
    await this.ensureIndex();
    await this.client.index({ index: this.index, id: manifest.runId, document: runManifestSchema.parse(manifest), refresh: 'wait_for' });
  }

  /** Updates the status of a run that has a manifest; false when it has none. */
  async setStatus(runId: string, status: RunStatus): Promise<boolean> {
    await this.ensureIndex();
    const response = await this.client.update(
      { index: this.index, id: runId, doc: { status, updatedAt: new Date().toISOString() }, refresh: 'wait_for' },
      { ignore: [404] },
    );
    return response.result === 'updated' || response.result === 'noop';
  }

  async ensureIndex(): Promise<void> {
    if (this.ready) return;
    await ensureIndex(this.client, this.index, RUNS_INDEX);
    this.ready = true;
  }
}

/**
 * Whether a sweep made this run: `sweep run` records its manifest, and every sweep workflow stores
 * the run's claims (a sweep started without the CLI has only those). Creates nothing.
 */
export async function isSweepRun(client: Client, prefix: string, runId: string): Promise<boolean> {
  if (runId === '') return false;
  if (await client.exists({ index: indexName(prefix, 'runs'), id: runId })) return true;
  const claims = await client.count({ index: indexName(prefix, 'run-claims'), query: { term: { runId } }, ignore_unavailable: true, allow_no_indices: true });
  return claims.count > 0;
}
