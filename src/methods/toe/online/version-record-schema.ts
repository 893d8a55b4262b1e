import { z } from 'zod';
import { policyWeightsFileSchema } from '../policy/weights';

/** A version record as `toe versions` lists it (weights left out); a damaged document fails it. */
export const versionSummarySchema = z.object({
  scope: z.string(),
  seq: z.number().int(),
  version: z.string(),
  parentVersion: z.string(),
  referenceVersion: z.string(),
  episodeIds: z.array(z.string()),
  meanReturn: z.number(),
  createdAt: z.string(),
  /** Absent in versions recorded before the warm-up fit existed. */
  update: z.enum(['warmup-clone', 'grpo']).optional(),
  clonedFrom: z.array(z.string()).optional(),
});

/** A version record as `toe versions --export` writes its weights. */
export const versionRecordSchema = versionSummarySchema.extend({ weights: policyWeightsFileSchema });
