import { z } from 'zod';
import { FIRE_SIMILARITY_MODES, type FireSettings } from './sandbox/fire-settings';
import { methodSamplingSchema } from '../sampling-schema';
import { releasedPromptsFromCheckout } from '../released-checkout';
import { fireReleasedPromptsFrom } from './released-source';

/**
 * Validates `fire` settings from the CLI (`--option key=value`) and sweep configs (`parameters.fire`).
 * `releasedPromptsFrom: <checkout>` is read here, once, into `releasedPrompts`: the workflow gets the text in its input.
 */
export const fireSettingsSchema = z
  .object({
    maxSteps: z.number().int().min(1).max(20),
    maxRetries: z.number().int().min(0).max(20),
    resultsPerSearch: z.number().int().min(1).max(10),
    similarityThreshold: z.number().gt(0).max(1),
    similarity: z.enum(FIRE_SIMILARITY_MODES),
    releasedPrompts: z.object({ commit: z.string().min(1), system: z.string(), step: z.string().min(1), final: z.string().min(1) }).strict(),
    releasedPromptsFrom: z.string().min(1),
    llm: methodSamplingSchema,
  })
  .partial()
  .strict()
  .transform((settings, ctx): Partial<FireSettings> => releasedPromptsFromCheckout(fireReleasedPromptsFrom)(settings, ctx));
