import { proxyActivities, type ActivityFunctionWithOptions } from '@temporalio/workflow';
import { proxyOrderedLocalActivities } from './local-activity-order';
import type { ToolActivity, ToolCallResult } from '../activities/tools.activities';
import { toolCallSummary } from '../src/shared/activity-summaries';
import { TOOL_FAMILIES, toolActivityName, type ToolFamily, type ToolName } from '../src/shared/tools';
import { clipObservation, type ToolCallRecord } from '../src/shared/transcript';
import { TOOL_CALL_OPTIONS } from './activity-options';
import { shortStepsAreLocal } from './es-activities';

/** Tool families that only read Elasticsearch (the Wikipedia family may call live MediaWiki, so it is not one). */
const ES_ONLY_FAMILIES: ReadonlySet<ToolFamily> = new Set(['retrieval', 'memory']);

type ToolProxies = Record<string, ActivityFunctionWithOptions<ToolActivity>>;

const proxies = new Map<string, ToolProxies>();

function activitiesOf(family: ToolFamily, local: boolean): ToolProxies {
  const key = `${family}/${local ? 'local' : 'regular'}`;
  let activities = proxies.get(key);
  if (!activities) {
    const { startToCloseTimeout, scheduleToCloseTimeout, retry } = TOOL_CALL_OPTIONS[family];
    activities = local
      ? proxyOrderedLocalActivities<Record<string, ToolActivity>>({ startToCloseTimeout, scheduleToCloseTimeout, retry })
      : proxyActivities<Record<string, ToolActivity>>(TOOL_CALL_OPTIONS[family]);
    proxies.set(key, activities);
  }
  return activities;
}

/**
 * Runs one tool call as its own activity (`tools.<name>`) with its family's timeout/retry preset;
 * tools that only read Elasticsearch run as local activities (see es-activities.ts).
 */
export function callTool(name: ToolName, args: Record<string, unknown>, summary = toolCallSummary(name, args)): Promise<ToolCallResult> {
  const family = TOOL_FAMILIES[name];
  const activity = activitiesOf(family, ES_ONLY_FAMILIES.has(family) && shortStepsAreLocal())[toolActivityName(name)];
  if (!activity) throw new Error(`no activity for tool ${name}`);
  // The summary names the call in the Temporal UI: `search_wikipedia("Eiffel Tower")`.
  return activity.executeWithOptions({ summary }, [{ args }]);
}

/** A tool call as the transcript keeps it: its result, or the error it failed with for good. */
export function toolCallRecord(name: string, args: Record<string, unknown>, outcome: Pick<ToolCallResult, 'observation' | 'isError'> | { error: string }): ToolCallRecord {
  const base = { summary: toolCallSummary(name, args), tool: name, args };
  if ('error' in outcome) return { ...base, error: outcome.error };
  return { ...base, isError: outcome.isError, observation: clipObservation(outcome.observation) };
}
