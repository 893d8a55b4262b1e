import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { ToolActivity, ToolCallResult } from '../activities/tools.activities';
import { TOOL_FAMILIES, toolActivityName, type ToolFamily, type ToolName } from '../src/shared/tools';
import { TOOL_CALL_OPTIONS } from './activity-options';
import { shortStepsAreLocal } from './es-activities';

/** Tool families that only read Elasticsearch (the Wikipedia family may call live MediaWiki, so it is not one). */
const ES_ONLY_FAMILIES: ReadonlySet<ToolFamily> = new Set(['retrieval', 'memory']);

const proxies = new Map<string, Record<string, ToolActivity>>();

function activitiesOf(family: ToolFamily, local: boolean): Record<string, ToolActivity> {
  const key = `${family}/${local ? 'local' : 'regular'}`;
  let activities = proxies.get(key);
  if (!activities) {
    const { startToCloseTimeout, scheduleToCloseTimeout, retry } = TOOL_CALL_OPTIONS[family];
    activities = local
      ? proxyLocalActivities<Record<string, ToolActivity>>({ startToCloseTimeout, scheduleToCloseTimeout, retry })
      : proxyActivities<Record<string, ToolActivity>>(TOOL_CALL_OPTIONS[family]);
    proxies.set(key, activities);
  }
  return activities;
}

/**
 * Runs one tool call as its own activity (`tools.<name>`) with its family's timeout/retry preset;
 * tools that only read Elasticsearch run as local activities (see es-activities.ts).
 */
export function callTool(name: ToolName, args: Record<string, unknown>): Promise<ToolCallResult> {
  const family = TOOL_FAMILIES[name];
  const activity = activitiesOf(family, ES_ONLY_FAMILIES.has(family) && shortStepsAreLocal())[toolActivityName(name)];
  if (!activity) throw new Error(`no activity for tool ${name}`);
  return activity({ args });
}
