import type { LlmTaskDefinition } from '../../llm/task-registry';

/** The `tool-mad` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const toolMadTasks: LlmTaskDefinition[] = [];
