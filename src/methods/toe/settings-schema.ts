import { z } from 'zod';
import { methodSamplingSchema } from '../sampling-schema';

const unit = z.number().min(0).max(1);

/** Validates `toe` settings from the CLI (`--option key=value`) and sweep configs (`parameters.toe`). */
export const toeSettingsSchema = z
  .object({
    maxDepth: z.number().int().min(0).max(10),
    maxIterations: z.number().int().min(1).max(100),
    minIterations: z.number().int().min(1).max(100),
    thresholds: z
      .object({
        expandReliability: unit,
        decisiveReliability: unit,
        decisiveVeracityHigh: unit,
        decisiveVeracityLow: unit,
        convergence: unit,
      })
      .partial()
      .strict(),
    finalMapping: z.object({ falseBelow: unit, trueAbove: unit }).partial().strict(),
    maxSearchSteps: z.number().int().min(1).max(20),
    maxResultsPerSearch: z.number().int().min(1).max(10),
    maxDocumentsPerNode: z.number().int().min(1).max(20),
    aggregation: z.enum(['blend', 'paper']),
    softAnd: z.boolean(),
    policy: z.enum(['heuristic', 'learned', 'online']),
    online: z
      .object({
        warmupClaims: z.number().int().min(0).max(10_000),
        groupSize: z.number().int().min(2).max(256),
        claimsPerVersion: z.number().int().min(1).max(10_000),
        scope: z.string().min(1).max(200),
      })
      .partial()
      .strict(),
    policyWeights: z.string().min(1),
    sampling: z.enum(['argmax', 'sample']),
    sources: z.enum(['offline', 'live']),
    logEpisodes: z.boolean(),
    llm: methodSamplingSchema,
  })
  .partial()
  .strict();
