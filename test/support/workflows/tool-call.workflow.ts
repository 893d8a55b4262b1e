import type { ToolCallResult } from '../../../activities/tools.activities';
import type { ToolName } from '../../../src/shared/tools';
import { callTool } from '../../../workflows/tool-calls';

/** Test-only workflow: one tool call through the real activity and preset. */
export async function toolCallWorkflow(name: ToolName, args: Record<string, unknown>): Promise<ToolCallResult> {
  return callTool(name, args);
}
