import type { ActivityDependencies } from './index';

/** Activities of the `toe` method beyond LLM tasks and tool calls (none yet). */
export function createToeActivities(_deps: ActivityDependencies) {
  return {};
}
