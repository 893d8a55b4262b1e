import type { LlmTaskInput, LlmTaskResult } from '../../src/llm/types';
import type { VerifyClaimInput } from '../../src/shared/verify';
import { LlmMeter } from '../../workflows/llm-meter';
import type { MethodRun } from '../../workflows/method-run';

/**
 * A MethodRun for unit tests of a method's control flow, without Temporal: every LLM call is
 * recorded in `tasks` (in call order) and answered by `answer(task, tasks)` (which may throw),
 * every tool call goes to `tool`, and published traces are dropped.
 */
export function scriptedMethodRun(
  input: VerifyClaimInput,
  answer: (task: string, tasks: readonly string[]) => unknown,
  tool: MethodRun['tool'],
): { run: MethodRun; tasks: string[] } {
  const tasks: string[] = [];
  const run: MethodRun = {
    input,
    progress: { stage: '', llmCalls: 0, toolCalls: 0 },
    meter: new LlmMeter(),
    async llm<T>(call: LlmTaskInput) {
      tasks.push(call.task);
      return { output: answer(call.task, tasks) as T } as LlmTaskResult<T>;
    },
    tool,
    countToolCall() {
      this.meter.recordToolCall();
    },
    absorbChild(spent) {
      this.meter.absorb(spent);
    },
    publishTrace() {},
    showProgress() {},
  };
  return { run, tasks };
}
