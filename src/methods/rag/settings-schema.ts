import { z } from 'zod';
import { BASELINE_ANSWER_ORDERS } from '../../shared/methods/answer-order';

/**
 * The rag baseline's own setting: where its answer puts the rationale (`order`, default rationale-first).
 * Its top-k, index and mode are the verification's options (`--top-k`, `--index`, `--retrieval`), and in
 * a sweep `parameters.rag` holds both (topK and index apply to every method's retrieval, order to rag's answer).
 */
export const ragSettingsSchema = z.object({ order: z.enum(BASELINE_ANSWER_ORDERS) }).partial().strict();

export type RagSettings = z.infer<typeof ragSettingsSchema>;
