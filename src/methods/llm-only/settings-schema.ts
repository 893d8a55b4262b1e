import { z } from 'zod';
import { methodSamplingSchema } from '../sampling-schema';
import { BASELINE_ANSWER_ORDERS } from '../../shared/methods/answer-order';

/** `llm-only` settings (`--option order=label-first`, `--option llm.temperature=0.7`, sweep `parameters.llm-only`): where its answer puts the rationale, and the sampling every method takes. */
export const llmOnlySettingsSchema = z.object({ order: z.enum(BASELINE_ANSWER_ORDERS), llm: methodSamplingSchema }).partial().strict();

export type LlmOnlySettings = z.infer<typeof llmOnlySettingsSchema>;
