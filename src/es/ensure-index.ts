import type { Client } from '@elastic/elasticsearch';
import type { estypes } from '@elastic/elasticsearch';
import { indexReplicas } from './index-replicas';

export interface IndexDefinition {
  settings?: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
}


/**
 * Creates the index with its mappings if it does not exist yet (safe to call concurrently). Returns
 * once the index's primary shard is active: a caller that finds an index another caller has just
 * created would otherwise query it too early ("no shard available").
 */
export async function ensureIndex(client: Client, name: string, definition: IndexDefinition): Promise<void> {
  if (await client.indices.exists({ index: name })) {
    await waitForPrimaryShard(client, name);
    return;
  }
  try {
    const created = await client.indices.create({
      index: name,
      settings: { number_of_shards: 1, number_of_replicas: indexReplicas(), ...definition.settings },
      mappings: definition.mappings,
    });
    // On a busy node the create call can return before its shard started (shards_acknowledged false).
    if (!created.shards_acknowledged) await waitForPrimaryShard(client, name);
  } catch (err) {
    const type = (err as { body?: { error?: { type?: string } } }).body?.error?.type;
    if (type !== 'resource_already_exists_exception') throw err;
    await waitForPrimaryShard(client, name);
  }
}

async function waitForPrimaryShard(client: Client, name: string): Promise<void> {
  await client.cluster.health({ index: name, wait_for_status: 'yellow', timeout: '30s' });
}
