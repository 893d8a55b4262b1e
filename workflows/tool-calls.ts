import { proxyActivities } from '@temporalio/workflow';
import type { ToolActivity, ToolCallResult } from '../activities/tools.activities';
import { TOOL_FAMILIES, toolActivityName, type ToolFamily, type ToolName } from '../src/shared/tools';
import { TOOL_CALL_OPTIONS } from './activity-options';

const proxies = new Map<ToolFamily, Record<string, ToolActivity>>();

/** Runs one tool call as its own activity (`tools.<name>`) with its family's timeout/retry preset. */
export function callTool(name: ToolName, args: Record<string, unknown>): Promise<ToolCallResult> {
  const family = TOOL_FAMILIES[name];
  let activities = proxies.get(family);
  if (!activities) {
    activities = proxyActivities<Record<string, ToolActivity>>(TOOL_CALL_OPTIONS[family]);
    proxies.set(family, activities);
  }
  const activity = activities[toolActivityName(name)];
  if (!activity) throw new Error(`no activity for tool ${name}`);
  return activity({ args });
}
