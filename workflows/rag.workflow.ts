import type { RagVerdictOutput } from '../src/methods/rag/verdict-task';
import { methodStepSummary, toolCallSummary } from '../src/shared/activity-summaries';
import { shortReads } from './es-activities';
import type { MethodOutcome, MethodRun } from './method-run';

/**
 * The `rag` baseline: retrieve the top-k passages for the claim, then one LLM verdict that
 * cites the passages it relies on.
 */
export async function runRag(run: MethodRun): Promise<MethodOutcome> {
  const { input, progress } = run;
  progress.stage = 'retrieving';
  const { topK, index, mode } = input.rag;
  const { passages } = await shortReads().retrievePassages.executeWithOptions({ summary: methodStepSummary('rag', toolCallSummary('retrieve_passages', { query: input.claim })) }, [
    { query: input.claim, index, k: topK, ...(mode ? { mode } : {}) },
  ]);
  run.countToolCall();
  const trace = { method: 'rag' as const, query: input.claim, passageIds: passages.map((p) => p.id) };
  run.publishTrace(trace);

  progress.stage = 'judging';
  const judgement = await run.llm<RagVerdictOutput>({
    task: 'rag.verdict',
    model: input.model,
    variables: { claim: input.claim, passages: passages.map(({ id, title, text }) => ({ id, title, text })) },
  });
  const { label, rationale, citedPassageIds } = judgement.output;
  return { label, rationale, citedPassageIds, evidence: passages, trace };
}
