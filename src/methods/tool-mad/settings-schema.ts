import { z } from 'zod';
import { RETRIEVAL_MODES } from '../../shared/retrieval';
import { MAX_TOOL_MAD_DEBATERS, MAX_TOOL_MAD_ROUNDS, TOOL_MAD_LABEL_SETS, TOOL_MAD_TOOLS } from './sandbox/tool-mad-settings';
import { methodSamplingSchema } from '../sampling-schema';

const share = z.number().min(0).max(1);

/** Validates `tool-mad` settings from the CLI (`--option key=value`) and sweep configs (`parameters.tool-mad`). */
export const toolMadSettingsSchema = z
  .object({
    // `-o debaters=rag,vanilla` reads naturally on the command line; YAML and JSON give arrays.
    debaters: z.preprocess(
      (value) => (typeof value === 'string' ? value.split(',').map((tool) => tool.trim()) : value),
      z.array(z.enum(TOOL_MAD_TOOLS)).min(2).max(MAX_TOOL_MAD_DEBATERS),
    ),
    maxRounds: z.number().int().min(1).max(MAX_TOOL_MAD_ROUNDS),
    ragTopK: z.number().int().min(1).max(20),
    ragMode: z.enum(RETRIEVAL_MODES),
    searchResults: z.number().int().min(1).max(20),
    queryFormulation: z.boolean(),
    initialQuery: z.enum(['llm', 'claim']),
    stabilityGate: z.boolean(),
    earlyStop: z.boolean(),
    judgeSeesScores: z.boolean(),
    faithfulnessThreshold: share,
    relevanceThreshold: share,
    thresholdComparison: z.enum(['>', '>=']),
    relevanceQuestions: z.number().int().min(1).max(10),
    relevanceEmbeddingModel: z.string().min(1).max(200),
    noncommittalPenalty: z.boolean(),
    stripLabelLine: z.boolean(),
    labelSet: z.enum(TOOL_MAD_LABEL_SETS),
    judgeDocumentChars: z.number().int().min(100).max(2000),
    llm: methodSamplingSchema,
  })
  .partial()
  .strict();
