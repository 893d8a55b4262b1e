import type { Client } from '@elastic/elasticsearch';
import type { LlmGateway } from '../src/llm/gateway';
import type { ToolRegistry } from '../src/tools/registry';
import type { VerdictStore } from '../src/verdicts/verdict-store';
import type { DocumentStore } from '../src/check/document-store';
import { createBatchActivities } from './batch.activities';
import { createCheckActivities } from './check.activities';
import { createIngestActivities } from './ingest.activities';
import { createLlmActivities } from './llm.activities';
import { createLlmRateActivities } from './llm-rate.activities';
import type { RateLimitReporter } from '../src/client/rate-limit-reporter';
import type { LlmPacingStore } from '../src/llm/llm-pacing-store';
import type { BatchRequestStore } from '../src/llm/batch/batch-request-store';
import type { MethodDefinition } from '../src/methods/define-method';
import { METHOD_NAMES, methodDefinition, type METHOD_REGISTRY, type MethodName } from '../src/methods/registry';
import { createMemoryActivities, type MemoryActivityDependencies } from './memory.activities';
import { createRetrievalActivities } from './retrieval.activities';
import { createSweepActivities, type SweepActivityDeps } from './sweep.activities';
import { createToolActivities } from './tools.activities';
import { createVerdictActivities } from './verdict.activities';

export interface ActivityDependencies extends Omit<SweepActivityDeps, 'verdicts'>, MemoryActivityDependencies {
  es: Client;
  gateway: LlmGateway;
  verdicts: VerdictStore;
  /** Document verdicts of `verity check`. */
  documents: DocumentStore;
  tools: ToolRegistry;
  /** The LLM queues' shared request schedule (the 429 controller's rate is set there). */
  llmPacing?: LlmPacingStore;
  /** Reports 429s to the LLM queue's adaptive rate controller. */
  rateLimits?: RateLimitReporter;
  /** The calls waiting in provider batches (the batch lane). */
  batchRequests?: BatchRequestStore;
}

/** Every activity verity's workflows call, built over injected dependencies. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...createLlmActivities({ gateway: deps.gateway, ...(deps.rateLimits ? { rateLimits: deps.rateLimits } : {}) }),
    ...createLlmRateActivities(deps),
    ...createBatchActivities({ gateway: deps.gateway, temporal: deps.temporal, ...(deps.batchRequests ? { batchRequests: deps.batchRequests } : {}) }),
    ...createRetrievalActivities({ es: deps.es, gateway: deps.gateway }),
    ...createVerdictActivities({ verdicts: deps.verdicts }),
    ...createMemoryActivities(deps),
    ...createSweepActivities(deps),
    ...createToolActivities({ tools: deps.tools }),
    ...createCheckActivities({ documents: deps.documents, verdicts: deps.verdicts }),
    ...createIngestActivities({ es: deps.es }),
    // Each method's own activities (src/methods/<m>/), from the registry.
    ...(Object.assign({}, ...METHOD_NAMES.map((name) => methodDefinition(name).activities?.(deps) ?? {})) as RegisteredMethodActivities),
  };
}

/** The activities of every registered method, as one object type (what the registry's factories build). */
type RegisteredMethodActivities = UnionToIntersection<
  { [M in MethodName]: (typeof METHOD_REGISTRY)[M] extends MethodDefinition<unknown, infer Activities> ? Activities : never }[MethodName]
>;

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;

export type Activities = ReturnType<typeof createActivities>;
