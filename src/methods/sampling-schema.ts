import { z } from 'zod';
import { AGENT_ROLES } from '../config/config';

const samplingFields = z
  .object({
    temperature: z.number().min(0).max(2),
    topP: z.number().gt(0).max(1),
    seed: z.number().int(),
    maxTokens: z.number().int().positive().max(1_000_000),
  })
  .partial()
  .strict();

/** `llm` in every method's settings: temperature, topP, seed, maxTokens, and `roles.<role>` overrides. */
export const methodSamplingSchema = samplingFields
  .extend({ roles: z.partialRecord(z.enum(AGENT_ROLES), samplingFields) })
  .partial()
  .strict();
