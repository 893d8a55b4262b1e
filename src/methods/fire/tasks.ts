import type { LlmTaskDefinition } from '../../llm/task-registry';

/** The `fire` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const fireTasks: LlmTaskDefinition[] = [];
