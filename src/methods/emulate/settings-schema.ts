import { z } from 'zod';
import { EMULATE_CONTENT_MODES } from './sandbox/emulate-settings';
import { methodSamplingSchema } from '../sampling-schema';

const positive = (max: number) => z.number().int().min(1).max(max);

/** Validates `emulate` settings from the CLI (`--option key=value`) and sweep configs (`parameters.emulate`). */
export const emulateSettingsSchema = z
  .object({
    maxSearchQueries: positive(20),
    maxSearchResultsPerQuery: positive(10),
    resultsPerSearch: positive(20),
    queriesPerGeneration: positive(5),
    contentMode: z.enum(EMULATE_CONTENT_MODES),
    pageChunks: positive(10),
    strictParsing: z.boolean(),
    codeCompat: z.boolean(),
    dedupeSeenLinks: z.boolean(),
    searchRank: z.boolean(),
    selfContainedCheck: z.boolean(),
    llm: methodSamplingSchema,
  })
  .partial()
  .strict();
