import type { LlmTaskDefinition } from '../../llm/task-registry';

/** The `mermaid` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const mermaidTasks: LlmTaskDefinition[] = [];
