import { z } from 'zod';
import { EMULATE_AGENTS, EMULATE_CONTENT_MODES, type EmulateSettings } from './sandbox/emulate-settings';
import { EMULATE_RELEASED_COMMIT, EMULATE_RELEASED_PROMPT_FILES } from './sandbox/released-prompts';
import { methodSamplingSchema } from '../sampling-schema';
import { readReleasedFiles, releasedPromptsFromCheckout } from '../released-checkout';

const positive = (max: number) => z.number().int().min(1).max(max);

const releasedPromptsSchema = z
  .object({ commit: z.string().min(1), templates: z.object(Object.fromEntries(EMULATE_AGENTS.map((agent) => [agent, z.string()])) as Record<(typeof EMULATE_AGENTS)[number], z.ZodString>).strict() })
  .strict();

/** The released templates read from a checkout of qqqube/EMULATE at the pinned commit (at verification or sweep start). */
export function emulateReleasedPromptsFrom(checkout: string): NonNullable<EmulateSettings['releasedPrompts']> {
  const files = Object.fromEntries(Object.entries(EMULATE_RELEASED_PROMPT_FILES).map(([agent, file]) => [agent, `prompts/${file}`])) as Record<keyof typeof EMULATE_RELEASED_PROMPT_FILES, string>;
  return { commit: EMULATE_RELEASED_COMMIT, templates: readReleasedFiles(checkout, { repository: 'qqqube/EMULATE', commit: EMULATE_RELEASED_COMMIT }, files) };
}

/**
 * Validates `emulate` settings from the CLI (`--option key=value`) and sweep configs (`parameters.emulate`).
 * `releasedPromptsFrom: <checkout>` is read here, once, into `releasedPrompts`: the workflow gets the text in its input.
 */
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
    releasedPrompts: releasedPromptsSchema,
    releasedPromptsFrom: z.string().min(1),
    llm: methodSamplingSchema,
  })
  .partial()
  .strict()
  .transform((settings, ctx): Partial<EmulateSettings> => releasedPromptsFromCheckout(emulateReleasedPromptsFrom)(settings, ctx));
