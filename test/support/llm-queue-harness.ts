import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { createLlmActivities } from '../../activities/llm.activities';
import { connectTemporal } from '../../src/client/temporal';
import type { VerityConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { createLogger } from '../../src/logging/logger';
import { defineTask, registerTask } from '../../src/llm/task-registry';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server';
import { createVerityWorker } from '../../src/worker/create-worker';
import { createWorkerDependencies, type WorkerDependencies } from '../../src/worker/dependencies';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from './test-env';

/** Registers a one-variable (claim) verdict task over a fixed passage, for tests of the LLM queue. */
export function registerClaimVerdictTask(id: string): void {
  registerTask(
    defineTask({
      id,
      version: '1',
      role: 'judge',
      schemaName: 'verdict',
      maxTokens: 400,
      variables: z.object({ claim: z.string().min(1) }),
      output: z.object({ label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']), evidence_ids: z.array(z.string()), rationale: z.string() }),
      render: ({ claim }) => [
        { role: 'system', content: 'Decide whether the evidence supports the claim.' },
        { role: 'user', content: `Claim: ${claim}\n\nEvidence:\n[Paris#0] Paris is the capital of France.` },
      ],
    }),
  );
}

export interface LlmQueueHarnessOptions {
  /** VERITY_LLM_RPS of the worker and its LLM queue. */
  requestsPerSecond: number;
  llmConcurrency: number;
  simulatorLatencyMs: number;
  /** The test's workflows; the worker registers only the LLM activities. */
  workflowsPath: string;
  /** Register the LLM activities on the main queue too (the local cache lookup runs there). */
  llmActivitiesOnMainQueue?: boolean;
  env?: Record<string, string>;
}

export interface LlmQueueHarness {
  prefix: string;
  config: VerityConfig;
  simulator: RunningSimulator;
  deps: WorkerDependencies;
  client: Client;
  /** Chat completion requests the simulator has received so far. */
  chatRequests(): number;
  close(): Promise<void>;
}

/** The simulator and an in-process worker whose LLM queue is paced at R, against the real Temporal and ES. */
export async function startLlmQueueHarness(label: string, options: LlmQueueHarnessOptions): Promise<LlmQueueHarness> {
  const prefix = uniqueName(label);
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  const R = options.requestsPerSecond;
  const simulator = await startSimulator({ port: 0, latencyMs: options.simulatorLatencyMs });
  const config = testConfig({
    ES_INDEX_PREFIX: prefix,
    TEMPORAL_TASK_QUEUE: prefix,
    OPENAI_BASE_URL: simulator.url,
    OPENAI_API_KEY: 'sk-test',
    VERITY_LLM_RPS: String(R),
    ...options.env,
  });
  const deps = await createWorkerDependencies(config, createLogger('warn'), { llmRequestsPerSecond: R });
  const llmActivities = createLlmActivities({ gateway: deps.gateway });
  const created = await createVerityWorker({
    temporal: config.temporal,
    taskQueue: config.temporal.taskQueue,
    workflowsPath: options.workflowsPath,
    activities: options.llmActivitiesOnMainQueue ? llmActivities : {},
    llmActivities,
    // As `verity worker` runs it: the server-side queue limit stays the global cap.
    llm: { requestsPerSecond: R, concurrency: options.llmConcurrency },
  });
  const running = created.worker.run().finally(() => created.connection.close());
  const client = await connectTemporal(config);
  return {
    prefix,
    config,
    simulator,
    deps,
    client,
    chatRequests: () => simulator.requests().filter((r) => r.path === '/v1/chat/completions').length,
    async close() {
      created.worker.shutdown();
      await running;
      await deps.close();
      await client.connection.close();
      await simulator.close();
      await deleteIndicesWithPrefix(es, prefix);
      await es.close();
    },
  };
}
