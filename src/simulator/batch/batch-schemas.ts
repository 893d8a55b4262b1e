import { z } from 'zod';

/** The only endpoint the simulator batches (as verity's batch lane uses). */
export const BATCH_ENDPOINT = '/v1/chat/completions';

/** OpenAI's limit of requests in one batch. */
export const MAX_BATCH_LINES = 50_000;

export const batchCreateSchema = z.object({
  input_file_id: z.string().min(1),
  endpoint: z.literal(BATCH_ENDPOINT),
  completion_window: z.literal('24h'),
  metadata: z.record(z.string(), z.string().max(512)).nullish(),
});
export type BatchCreateBody = z.infer<typeof batchCreateSchema>;

/** One line of a batch input file. */
export const batchInputLineSchema = z.object({
  custom_id: z.string().min(1).max(512),
  method: z.literal('POST'),
  url: z.literal(BATCH_ENDPOINT),
  body: z.record(z.string(), z.unknown()),
});
export type BatchInputLine = z.infer<typeof batchInputLineSchema>;

export const batchListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().optional(),
});
