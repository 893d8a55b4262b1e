import { z } from 'zod';

/**
 * The Temporal worker options verity lets an operator set (VERITY_WORKER_TUNING, e.g.
 * `workflowPollers=4,workflowThreads=2`). Unset keys keep verity's defaults, which
 * bench:throughput measured on a 2-core machine (README, "Sizing a sweep").
 */
export const workerTuningSchema = z
  .object({
    /** Threads running workflow code (`workflowThreadPoolSize`). */
    workflowThreads: z.number().int().min(1).max(64),
    /** Workflow task long-polls at once (`maxConcurrentWorkflowTaskPolls`). */
    workflowPollers: z.number().int().min(1).max(256),
    /** Workflow tasks processed at once (`maxConcurrentWorkflowTaskExecutions`). */
    workflowTasks: z.number().int().min(2).max(4096),
    /** Activity task long-polls at once, on each of the two queues (`maxConcurrentActivityTaskPolls`). */
    activityPollers: z.number().int().min(1).max(256),
    /** Workflows kept in memory between tasks (`maxCachedWorkflows`); 0 replays every task. */
    cachedWorkflows: z.number().int().min(0).max(100_000),
  })
  .partial()
  .strict();

export type WorkerTuning = z.infer<typeof workerTuningSchema>;

export const WORKER_TUNING_KEYS = Object.keys(workerTuningSchema.shape) as (keyof WorkerTuning)[];

/** Parses `key=value,key=value`; throws one line naming the bad part. */
export function parseWorkerTuning(text: string | undefined): WorkerTuning {
  if (text === undefined || text.trim() === '') return {};
  const entries = text.split(',').map((part) => {
    const [key, value, ...rest] = part.split('=').map((piece) => piece.trim());
    if (!key || value === undefined || rest.length > 0) throw new Error(`"${part.trim()}": expected key=value (keys: ${WORKER_TUNING_KEYS.join(', ')})`);
    if (!(WORKER_TUNING_KEYS as string[]).includes(key)) throw new Error(`unknown key "${key}" (keys: ${WORKER_TUNING_KEYS.join(', ')})`);
    const number = Number(value);
    if (!Number.isInteger(number)) throw new Error(`${key}: expected a whole number, got "${value}"`);
    return [key, number] as const;
  });
  const parsed = workerTuningSchema.safeParse(Object.fromEntries(entries));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** The main worker's options (workflows and short-step activities). */
export function mainWorkerOptions(tuning: WorkerTuning) {
  return {
    ...(tuning.workflowThreads !== undefined ? { workflowThreadPoolSize: tuning.workflowThreads } : {}),
    ...(tuning.workflowPollers !== undefined ? { maxConcurrentWorkflowTaskPolls: tuning.workflowPollers } : {}),
    ...(tuning.workflowTasks !== undefined ? { maxConcurrentWorkflowTaskExecutions: tuning.workflowTasks } : {}),
    ...(tuning.activityPollers !== undefined ? { maxConcurrentActivityTaskPolls: tuning.activityPollers } : {}),
    ...(tuning.cachedWorkflows !== undefined ? { maxCachedWorkflows: tuning.cachedWorkflows } : {}),
  };
}

/** The LLM queue worker's options (activities only). */
export function llmWorkerOptions(tuning: WorkerTuning) {
  return tuning.activityPollers !== undefined ? { maxConcurrentActivityTaskPolls: tuning.activityPollers } : {};
}
