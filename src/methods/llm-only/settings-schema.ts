import { z } from 'zod';
import { methodSamplingSchema } from '../sampling-schema';

/** `llm-only` settings (`--option llm.temperature=0.7`, sweep `parameters.llm-only`): only the sampling every method takes. */
export const llmOnlySettingsSchema = z.object({ llm: methodSamplingSchema }).partial().strict();

export type LlmOnlySettings = z.infer<typeof llmOnlySettingsSchema>;
