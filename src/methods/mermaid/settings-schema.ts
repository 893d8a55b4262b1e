import { z } from 'zod';
import { MEMORY_DEDUP_KEYS, MEMORY_RECALL_MODES, MEMORY_UPDATE_MODES } from '../../shared/memory';
import { MERMAID_FIDELITIES, MERMAID_LABEL_SET_NAMES, MERMAID_MEMORY_MODES, MERMAID_MEMORY_SHARINGS, type MermaidLabelSetName } from './sandbox/mermaid-settings';
import { TOOL_NAMES, type ToolName } from '../../shared/tools';
import { methodSamplingSchema } from '../sampling-schema';
import { memoryScopeSchema } from '../../memory/scope';
import { releasedPromptsFromCheckout } from '../released-checkout';
import { mermaidReleasedPromptsFrom } from './released-source';

const releasedPromptsSchema = z.object({ commit: z.string().min(1), decompose: z.string().min(1), react: z.string().min(1), toolNames: z.array(z.string().min(1)).min(1) }).strict();

/**
 * Validates `mermaid` settings from the CLI (`--option key=value`) and sweep configs (`parameters.mermaid`).
 * `releasedPromptsFrom: <checkout>` is read here, once, into `releasedPrompts`: the workflow gets the text in its input.
 */
export const mermaidSettingsSchema = z
  .object({
    fidelity: z.enum(MERMAID_FIDELITIES),
    maxSteps: z.number().int().min(1).max(20),
    decompose: z.boolean(),
    // `memory=false` / `memory=true` read naturally on the command line.
    memory: z.union([z.enum(MERMAID_MEMORY_MODES), z.boolean().transform((on) => (on ? 'on' : 'off'))]),
    memorySharing: z.enum(MERMAID_MEMORY_SHARINGS),
    memoryScope: memoryScopeSchema,
    recall: z
      .object({ mode: z.enum(MEMORY_RECALL_MODES), topK: z.number().int().min(1).max(50), similarityThreshold: z.number().min(-1).max(1) })
      .partial()
      .strict(),
    update: z.object({ mode: z.enum(MEMORY_UPDATE_MODES), dedup: z.enum(MEMORY_DEDUP_KEYS), storeInvalid: z.boolean() }).partial().strict(),
    tools: z.boolean(),
    toolset: z.union([z.literal('auto'), z.array(z.enum(TOOL_NAMES as [ToolName, ...ToolName[]])).min(1)]),
    labelSet: z.enum(['auto', ...MERMAID_LABEL_SET_NAMES] as ['auto', ...MermaidLabelSetName[]]),
    forceAnswer: z.boolean(),
    toolHints: z.boolean(),
    fallbackLabel: z.enum(['positive', 'negative']),
    decomposerModel: z.string().min(1),
    executorModel: z.string().min(1),
    llm: methodSamplingSchema,
    releasedPrompts: releasedPromptsSchema,
    releasedPromptsFrom: z.string().min(1),
  })
  .partial()
  .strict()
  .transform((settings, ctx) => releasedPromptsFromCheckout(mermaidReleasedPromptsFrom)(settings, ctx));
