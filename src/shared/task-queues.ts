/**
 * LLM calls run on their own task queue next to the main one, served by a worker whose
 * dispatch rate and concurrency match the provider's limits (VERITY_LLM_RPS / _CONCURRENCY).
 */
export function llmTaskQueue(taskQueue: string): string {
  return `${taskQueue}-llm`;
}
