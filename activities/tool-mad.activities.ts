import type { ActivityDependencies } from './index';

/** Activities of the `tool-mad` method beyond LLM tasks and tool calls (none yet). */
export function createToolMadActivities(_deps: ActivityDependencies) {
  return {};
}
