import { createLlmCaller } from '../../../workflows/llm-calls';
import { LlmMeter } from '../../../workflows/llm-meter';
import type { VerdictUsage } from '../../../src/shared/verify';

/** Test-only workflow: the calls of LLM task `task`, one after another, through verity's LLM caller; what the meter counted. */
export async function llmCallsWorkflow(task: string, claims: string[]): Promise<{ cached: boolean[]; usage: VerdictUsage }> {
  const meter = new LlmMeter();
  const llmCall = createLlmCaller(meter);
  const cached: boolean[] = [];
  for (const claim of claims) cached.push((await llmCall({ task, variables: { claim } }, `verdict · ${claim}`)).cached);
  return { cached, usage: meter.usage };
}
