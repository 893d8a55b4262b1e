import { ActivityFailure, isCancellation } from '@temporalio/workflow';
import type { ToolCallResult } from '../../../../activities/tools.activities';
import type { MethodRun } from '../../../../workflows/method-run';

/** A tool that fails for good (outage, missing index) still counts as a call and becomes an error observation, as in the code. */
export async function callToolAsObservation(run: MethodRun, tool: Parameters<MethodRun['tool']>[0], args: Record<string, unknown>): Promise<Pick<ToolCallResult, 'observation' | 'isError' | 'data'>> {
  try {
    return await run.tool(tool, args);
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    run.countToolCall();
    return { observation: `Error: ${err.cause?.message ?? err.message}`, isError: true };
  }
}
