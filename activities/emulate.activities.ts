import type { ActivityDependencies } from './index';

/** Activities of the `emulate` method beyond LLM tasks and tool calls (none yet). */
export function createEmulateActivities(_deps: ActivityDependencies) {
  return {};
}
