import type { RagVerdictOutput } from '../verdict-task';
import { methodStepSummary, stepOfTask, toolCallSummary } from '../../../shared/activity-summaries';
import { REASK_SUFFIX, type InvalidAnswerFallback } from '../../../shared/invalid-answer';
import { NO_VALID_ANSWER_RATIONALE } from '../../../shared/methods/invalid-answer-fallbacks';
import { shortReads } from '../../../../workflows/es-activities';
import { askWithOneReask } from '../../../../workflows/invalid-answers';
import type { MethodOutcome, MethodRun } from '../../../../workflows/method-run';
import { baselineAnswerOrder } from '../../../../workflows/baseline-answer-order';

/**
 * The `rag` baseline: retrieve the top-k passages for the claim, then one LLM verdict that
 * cites the passages it relies on (its rationale first unless `order: label-first`). An invalid verdict answer is asked once more with a correction;
 * still invalid, the verdict is NEI ("no valid answer"), recorded in the trace.
 */
export async function runRag(run: MethodRun): Promise<MethodOutcome> {
  const { input, progress } = run;
  progress.stage = 'retrieving';
  const { topK, index, mode } = input.rag;
  const { passages } = await shortReads().retrievePassages.executeWithOptions({ summary: methodStepSummary('rag', toolCallSummary('retrieve_passages', { query: input.claim })) }, [
    { query: input.claim, index, k: topK, ...(mode ? { mode } : {}) },
  ]);
  run.countToolCall();
  const trace: { method: 'rag'; query: string; passageIds: string[]; invalidAnswers?: InvalidAnswerFallback[] } = { method: 'rag' as const, query: input.claim, passageIds: passages.map((p) => p.id) };
  run.publishTrace(trace);

  progress.stage = 'judging';
  const judgement = await askWithOneReask((call, reask) => run.llm<RagVerdictOutput>(call, reask ? `${stepOfTask(call.task)}${REASK_SUFFIX}` : undefined), {
    task: baselineAnswerOrder(input.settings?.rag?.order) === 'label-first' ? 'rag.verdict' : 'rag.verdict-rationale-first',
    model: input.model,
    variables: { claim: input.claim, passages: passages.map(({ id, title, text }) => ({ id, title, text })) },
  });
  if (!judgement.ok) {
    trace.invalidAnswers = [{ step: 'verdict', problem: judgement.problem, fallback: 'NEI' }];
    return { label: 'NEI', rationale: `${NO_VALID_ANSWER_RATIONALE}: ${judgement.problem}`, citedPassageIds: [], evidence: passages, trace };
  }
  const { label, rationale, citedPassageIds } = judgement.result.output;
  return { label, rationale, citedPassageIds, evidence: passages, trace };
}
