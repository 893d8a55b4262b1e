import type { MethodOutcome, MethodRun } from '../../../../workflows/method-run';
import { baselineAnswerOrder } from '../../../../workflows/baseline-answer-order';
import { askWithOneReask } from '../../../../workflows/invalid-answers';
import { stepOfTask } from '../../../shared/activity-summaries';
import { REASK_SUFFIX, type InvalidAnswerFallback } from '../../../shared/invalid-answer';
import { NO_VALID_ANSWER_RATIONALE } from '../../../shared/methods/invalid-answer-fallbacks';
import type { LlmOnlyVerdictOutput } from '../verdict-task';

/**
 * The `llm-only` baseline: one verdict from the model's own knowledge, on the claim alone (no
 * retrieval, no tools), its rationale first unless `order: label-first`. An invalid answer is asked once more with a correction; still invalid, the
 * verdict is NEI ("no valid answer"), recorded in the trace.
 */
export async function runLlmOnly(run: MethodRun): Promise<MethodOutcome> {
  const { input, progress } = run;
  const trace: { method: 'llm-only'; invalidAnswers?: InvalidAnswerFallback[] } = { method: 'llm-only' };
  run.publishTrace(trace);
  progress.stage = 'judging';
  const judgement = await askWithOneReask((call, reask) => run.llm<LlmOnlyVerdictOutput>(call, reask ? `${stepOfTask(call.task)}${REASK_SUFFIX}` : undefined), {
    task: baselineAnswerOrder(input.settings?.['llm-only']?.order) === 'label-first' ? 'llm-only.verdict' : 'llm-only.verdict-rationale-first',
    model: input.model,
    variables: { claim: input.claim },
  });
  if (!judgement.ok) {
    trace.invalidAnswers = [{ step: 'verdict', problem: judgement.problem, fallback: 'NEI' }];
    return { label: 'NEI', rationale: `${NO_VALID_ANSWER_RATIONALE}: ${judgement.problem}`, citedPassageIds: [], evidence: [], trace };
  }
  const { label, rationale } = judgement.result.output;
  return { label, rationale, citedPassageIds: [], evidence: [], trace };
}
