import { z } from 'zod';
import { memoryScopeSchema } from './scope';

/** One stored observation: the evidence a tool returned, tagged with every entity key of its claim (§3.2). */
export const memoryEntrySchema = z.object({
  id: z.string().min(1),
  runScope: memoryScopeSchema,
  claimId: z.string(),
  /** The claim's entities as the decomposer wrote them. */
  entityKeys: z.array(z.string()),
  /** Their normalised forms, which recall matches against. */
  keywords: z.array(z.string()),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  query: z.string(),
  evidence: z.string(),
  sources: z.array(z.string()),
  /** ISO-8601 time of the write. */
  timestamp: z.string(),
  /** Insertion order within the scope: recall breaks score ties oldest first. */
  insertionOrder: z.number().int().nonnegative(),
  /** What the `_id` hashes besides the scope: (tool, normalised args) or the lower-cased query. */
  dedupKey: z.string(),
  embedding: z.array(z.number()).optional(),
  embeddingModel: z.string().optional(),
});

export type MemoryEntry = z.infer<typeof memoryEntrySchema>;
