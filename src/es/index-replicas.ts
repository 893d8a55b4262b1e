import { z } from 'zod';

const replicasSchema = z.coerce.number().int().min(0).max(5);

/**
 * Replicas of every verity index (VERITY_ES_REPLICAS): 0 on the single dev node, where a replica
 * could never be allocated; 1 on the three-node cluster (`npm run infra:cluster`), so losing one
 * data node loses no shard. Read where indices are created, not in the workflow sandbox.
 */
export function indexReplicas(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.VERITY_ES_REPLICAS;
  if (raw === undefined || raw.trim() === '') return 0;
  const parsed = replicasSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`VERITY_ES_REPLICAS must be an integer from 0 to 5, got ${JSON.stringify(raw)}`);
  return parsed.data;
}
