import { z } from 'zod';
import { FIRE_SIMILARITY_MODES } from './sandbox/fire-settings';
import { methodSamplingSchema } from '../sampling-schema';

/** Validates `fire` settings from the CLI (`--option key=value`) and sweep configs (`parameters.fire`). */
export const fireSettingsSchema = z
  .object({
    maxSteps: z.number().int().min(1).max(20),
    maxRetries: z.number().int().min(0).max(20),
    resultsPerSearch: z.number().int().min(1).max(10),
    similarityThreshold: z.number().gt(0).max(1),
    similarity: z.enum(FIRE_SIMILARITY_MODES),
    llm: methodSamplingSchema,
  })
  .partial()
  .strict();
