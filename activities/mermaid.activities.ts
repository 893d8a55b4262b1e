import type { ActivityDependencies } from './index';

/** Activities of the `mermaid` method beyond LLM tasks and tool calls (none yet). */
export function createMermaidActivities(_deps: ActivityDependencies) {
  return {};
}
