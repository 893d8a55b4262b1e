import type { LlmTaskDefinition } from '../../llm/task-registry';

/** The `toe` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const toeTasks: LlmTaskDefinition[] = [];
