import type { LlmTaskDefinition } from '../../llm/task-registry';

/** The `emulate` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const emulateTasks: LlmTaskDefinition[] = [];
