import { ApplicationFailure } from '@temporalio/common';
import { TOOL_NAMES, toolActivityName, type ToolActivityName, type ToolName } from '../src/shared/tools';
import { ToolError, type ToolErrorKind } from '../src/tools/errors';
import { toObservation } from '../src/tools/observation';
import type { ToolRegistry } from '../src/tools/registry';
import { annotateActiveSpan } from '../src/telemetry/active-span';

/** Structured data larger than this stays out of the history; the observation is always there. */
export const MAX_ACTIVITY_DATA_CHARS = 32_000;

export interface ToolCallInput {
  args: Record<string, unknown>;
}

export interface ToolCallResult {
  tool: ToolName;
  /** What the agent reads: the tool's JSON output or its error message, cut to OBSERVATION_MAX_CHARS. */
  observation: string;
  truncated: boolean;
  /** Wrong arguments, unknown tool, page not found, blocked or unreadable URL: an answer for the agent, not a failure. */
  isError: boolean;
  errorKind?: ToolErrorKind;
  data?: unknown;
  /** True when `data` was left out for size. */
  dataOmitted?: boolean;
}

export type ToolActivity = (input: ToolCallInput) => Promise<ToolCallResult>;

/**
 * One activity per tool, `tools.<name>`, so the Temporal UI shows which tool ran. Errors the agent
 * caused come back as error observations; rate limits and outages fail retryably; auth and missing
 * indices fail for good.
 */
export function createToolActivities(deps: { tools: ToolRegistry }): Record<ToolActivityName, ToolActivity> {
  const entries = TOOL_NAMES.map((name) => [toolActivityName(name), (input: ToolCallInput) => callTool(deps.tools, name, input)] as const);
  return Object.fromEntries(entries) as Record<ToolActivityName, ToolActivity>;
}

async function callTool(tools: ToolRegistry, name: ToolName, input: ToolCallInput): Promise<ToolCallResult> {
  annotateActiveSpan({ 'verity.tool.name': name });
  try {
    const { observation, truncated, data } = await tools.invoke(name, input.args);
    annotateActiveSpan({ 'verity.tool.error': false, 'verity.tool.truncated': truncated });
    return { tool: name, observation, truncated, isError: false, ...boundedData(data) };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    annotateActiveSpan({ 'verity.tool.error': true, 'verity.tool.error_kind': err.kind });
    if (err.isAgentError) return { tool: name, ...toObservation(err.message), isError: true, errorKind: err.kind };
    throw toFailure(err);
  }
}

function boundedData(data: unknown): Pick<ToolCallResult, 'data' | 'dataOmitted'> {
  return JSON.stringify(data).length <= MAX_ACTIVITY_DATA_CHARS ? { data } : { dataOmitted: true };
}

function toFailure(err: ToolError): ApplicationFailure {
  const { retryAfterSeconds } = err.details;
  return ApplicationFailure.create({
    message: err.message,
    type: err.failureType,
    nonRetryable: !err.retryable,
    ...(retryAfterSeconds === undefined ? {} : { nextRetryDelay: `${retryAfterSeconds} seconds` }),
  });
}
