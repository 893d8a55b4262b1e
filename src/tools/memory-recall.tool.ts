import { z } from 'zod';
import type { EvidenceMemory } from '../memory/evidence-memory';
import { assertValidScope } from '../memory/scope';
import { GLOBAL_MEMORY_SCOPE, MEMORY_RECALL_MODES, type MemoryRecallOptions } from '../shared/memory';
import { clampedInt } from './arguments';
import { defineTool } from './tool';

const MAX_RECALL_K = 20;

/** Read-only access to the evidence memory (MERMAID §3): what earlier tool calls found about these entities. */
export function createMemoryRecallTool(memory: Pick<EvidenceMemory, 'recall'>, defaults: MemoryRecallOptions) {
  return defineTool({
    name: 'memory_recall',
    description: 'Recall evidence stored by earlier tool calls about the given entities (people, places, works, concepts), best match first.',
    input: z.object({
      entities: z.array(z.string().trim().min(1)).min(1).max(20).describe('Entities of the claim to look up'),
      scope: z.string().trim().min(1).default(GLOBAL_MEMORY_SCOPE).describe(`Memory scope (default ${GLOBAL_MEMORY_SCOPE})`),
      mode: z.enum(MEMORY_RECALL_MODES).default(defaults.mode).describe(`exact, substring or semantic matching (default ${defaults.mode})`),
      k: clampedInt(defaults.topK, MAX_RECALL_K).describe(`Entries to return (default ${defaults.topK})`),
    }),
    async run({ entities, scope, mode, k }) {
      const recalled = await memory.recall(assertValidScope(scope), entities, { ...defaults, mode, topK: k });
      return { scope, mode, entries: recalled.hits.map((hit, i) => ({ ...hit, evidence: recalled.lines[i] ?? '' })) };
    },
  });
}
