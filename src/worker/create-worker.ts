import { type NativeConnection, Worker } from '@temporalio/worker';
import type { Activities } from '../../activities';
import type { TemporalConnection } from '../config/temporal-connection';
import { llmTaskQueue } from '../shared/task-queues';
import { connectNative } from './native-connection';
import type { ConfigStamp } from '../shared/identity';
import { configCheckInterceptor } from './config-check';
import { llmWorkerOptions, mainWorkerOptions, type WorkerTuning } from './worker-tuning';
import { tracesUrl } from '../telemetry/tracing-env';
import { workflowBundleOf } from './workflow-bundle';

export interface LlmQueueLimits {
  /** Activities per second dispatched on the LLM queue, across all its workers (server-side). */
  requestsPerSecond?: number;
  /** Activities running at once in this worker. */
  concurrency?: number;
}

export interface CreateWorkerOptions {
  /** Address, namespace, TLS and API key (config.temporal). */
  temporal: TemporalConnection;
  taskQueue: string;
  /** Verity's activities (or, with `workflowsPath`, those of the other workflow code). */
  activities: object;
  /** Workflow code other than verity's own (bench:throughput's raw engine ceiling). */
  workflowsPath?: string;
  /** Activities of the LLM queue (default: verity's `llmTask`). */
  llmActivities?: object;
  /** 0 forces a replay on every workflow task (used by tests to prove determinism); wins over `tuning`. */
  maxCachedWorkflows?: number;
  /** Pollers, threads and cache (config.workerTuning). */
  tuning?: WorkerTuning;
  /** Limits of the worker serving `<taskQueue>-llm` (default: no limits). */
  llm?: LlmQueueLimits;
  /** This worker's configuration: activities of workflows started under another one are refused. */
  configStamp?: ConfigStamp;
  /** Workflow interceptor modules bundled with the workflows (tests inject workflow-task failures with one). */
  workflowInterceptorModules?: string[];
}

import { WORKFLOWS_PATH } from './workflow-paths';

export { WORKFLOW_INTERCEPTORS_PATH, WORKFLOWS_PATH } from './workflow-paths';

/**
 * The workers of one verity process: workflows and tool activities on the task queue, LLM calls on
 * `<taskQueue>-llm` with the provider's rate limits. They run and stop together.
 */
export class VerityWorker {
  constructor(
    readonly main: Worker,
    readonly llm: Worker,
  ) {}

  /** Runs both until shutdown; if either stops, the other is shut down too. */
  async run(): Promise<void> {
    const runs = [this.main, this.llm].map((worker) => worker.run().finally(() => this.shutdown()));
    const results = await Promise.allSettled(runs);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  shutdown(): void {
    for (const worker of [this.main, this.llm]) if (worker.getState() === 'RUNNING') worker.shutdown();
  }

  getState(): ReturnType<Worker['getState']> {
    return this.main.getState();
  }
}

export async function createVerityWorker(options: CreateWorkerOptions): Promise<{ worker: VerityWorker; connection: NativeConnection }> {
  const connection = await connectNative(options.temporal);
  // Tracing (off unless OTEL_EXPORTER_OTLP_ENDPOINT is set): its activity span wraps the configuration check.
  const tracing = tracesUrl(process.env) ? (await import('../telemetry/worker-tracing')).workerTracing() : undefined;
  const activityInterceptors = [...(tracing?.activityInterceptors ?? []), ...(options.configStamp ? [configCheckInterceptor(options.configStamp)] : [])];
  try {
    const main = await Worker.create({
      connection,
      namespace: options.temporal.namespace,
      taskQueue: options.taskQueue,
      workflowBundle: await workflowBundleOf(options.workflowsPath ?? WORKFLOWS_PATH, [...(tracing?.workflowInterceptorModules ?? []), ...(options.workflowInterceptorModules ?? [])]),
      activities: options.activities,
      interceptors: { activity: activityInterceptors },
      ...(tracing ? { sinks: tracing.sinks } : {}),
      shutdownGraceTime: '10 seconds',
      ...mainWorkerOptions(options.tuning ?? {}),
      ...(options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
    });
    const llm = await Worker.create({
      connection,
      namespace: options.temporal.namespace,
      taskQueue: llmTaskQueue(options.taskQueue),
      activities: options.llmActivities ?? { llmTask: (options.activities as Activities).llmTask },
      interceptors: { activity: activityInterceptors },
      shutdownGraceTime: '10 seconds',
      ...llmWorkerOptions(options.tuning ?? {}),
      ...(options.llm?.requestsPerSecond !== undefined ? { maxTaskQueueActivitiesPerSecond: options.llm.requestsPerSecond } : {}),
      ...(options.llm?.concurrency !== undefined ? { maxConcurrentActivityTaskExecutions: options.llm.concurrency } : {}),
    });
    return { worker: new VerityWorker(main, llm), connection };
  } catch (err) {
    await connection.close();
    throw err;
  }
}
