import { defineQuery, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import type { LlmTaskInput } from '../../../llm/types';
import { llmCallSummary, methodStepSummary, toolCallSummary } from '../../../shared/activity-summaries';
import type {
  ToolMadAnswerOutput,
  ToolMadQuestionOutput,
  ToolMadQueryOutput,
  ToolMadStatementsOutput,
  ToolMadVerifyOutput,
} from '../tasks';
import type { Debater, DebaterTurn, PreviousTurn, RoundProgress, StabilityScores, ToolMadDocument, ToolMadRoundInput } from './tool-mad-debate';
import { labelTexts, parseFinalLabel, verdictOfLabel, withoutLabelLine } from './tool-mad-labels';
import { parseQuery } from './tool-mad-query';
import { answerRelevanceOf, faithfulnessOf } from './tool-mad-scores';
import { REASK_SUFFIX, type InvalidAnswerFallback } from '../../../shared/invalid-answer';
import { isToolMadAbstention, TOOL_MAD_ABSTAINING_ANSWER } from '../../../shared/methods/invalid-answer-fallbacks';
import { outputOrFallback } from '../../../../workflows/invalid-answers';
import { shortReads } from '../../../../workflows/es-activities';
import { createLlmCaller } from '../../../../workflows/llm-calls';
import { LlmMeter, type MeterSummary } from '../../../../workflows/llm-meter';
import { PATCHES } from '../../../shared/patches';
import { callTool, toolCallRecord } from '../../../../workflows/tool-calls';
import { hasPatch } from '../../../../workflows/has-patch';

/** What the round child workflow returns; `meter` is its spend, for the parent to absorb. */
export interface ToolMadRoundResult {
  round: number;
  turns: DebaterTurn[];
  meter: MeterSummary;
}

/** Each debater's step in the running round (query, retrieving, answering, scoring, done). */
export const toolMadRoundStateQuery = defineQuery<RoundProgress>('roundState');


/**
 * One Tool-MAD debate round (paper Algorithm 1, the body of `for r`): every debater, concurrently,
 * formulates its query from the claim, its own previous query and the others' previous answers,
 * retrieves k documents with its tool, answers with a label on the last line, and has the answer
 * scored for faithfulness (statements checked against its documents) and answer relevance
 * (generated questions compared with the claim). Its id is `<verification id>/round-<r>`.
 */
export async function toolMadRoundWorkflow(input: ToolMadRoundInput): Promise<ToolMadRoundResult> {
  const meter = new LlmMeter();
  const llmCall = createLlmCaller(meter, input.batch ? { lane: input.batch, defaultModel: input.model } : undefined);
  const progress: RoundProgress = { round: input.round, workflowId: workflowInfo().workflowId, steps: {} };
  setHandler(toolMadRoundStateQuery, () => progress);

  const turns = await Promise.all(
    input.debaters.map(async (debater) => {
      const step = (name: string) => {
        progress.steps[debater.id] = name;
        setCurrentDetails(Object.entries(progress.steps).map(([id, at]) => `**${id}**: ${at}`).join(' · '));
      };
      const invalidAnswers: InvalidAnswerFallback[] = [];
      const ask = async <T>(call: LlmTaskInput, reask: boolean) => {
        const stage = `${TASK_STAGES[call.task] ?? call.task}${reask ? REASK_SUFFIX : ''}`;
        const summary = llmCallSummary('tool-mad', `round ${input.round} · ${debater.id} debater · ${stage}`, call.model ?? input.model);
        return llmCall<T>(input.settings.llm ? { ...call, sampling: input.settings.llm } : call, summary);
      };
      // An invalid answer is re-asked once with a correction, then the step's fallback stands in (recorded in the turn).
      const llm = async <T>(call: LlmTaskInput, fallback: { value: T; description: string }): Promise<T> =>
        outputOrFallback((c, reask) => ask<T>(c, reask), call, { ...fallback, step: TASK_STAGES[call.task] ?? call.task }, invalidAnswers);
      const turn = await debaterTurn(input, debater, { llm, step, meter });
      return invalidAnswers.length > 0 ? { ...turn, invalidAnswers } : turn;
    }),
  );
  return { round: input.round, turns, meter: meter.summary() };
}

interface TurnContext {
  /** `fallback`: what stands in when no valid answer comes even when re-asked. */
  llm<T>(call: LlmTaskInput, fallback: { value: T; description: string }): Promise<T>;
  step(name: string): void;
  meter: LlmMeter;
}

async function debaterTurn(input: ToolMadRoundInput, debater: Debater, ctx: TurnContext): Promise<DebaterTurn> {
  const { claim, settings, model } = input;
  const own = input.previous?.find((p) => p.debater === debater.id);
  const others = otherAnswers(input.previous, debater.id);

  ctx.step('query');
  const { query, parsedOk } = await formulateQuery(input, debater, own, others, ctx);

  ctx.step('retrieving');
  const { documents, toolError } = query === null ? { documents: [], toolError: undefined } : await retrieve(input, debater, query, ctx);

  ctx.step('answering');
  const labels = labelTexts(input.labelSet);
  const { answer } = await ctx.llm<ToolMadAnswerOutput>({
    task: 'tool-mad.answer',
    model,
    variables: { tool: debater.tool, claim, labels, documents: promptDocuments(documents), ...(others.length > 0 ? { otherAnswers: others } : {}) },
  }, { value: { answer: TOOL_MAD_ABSTAINING_ANSWER }, description: 'abstains (no label)' });
  // An abstaining debater has no label and nothing to score.
  const abstains = isToolMadAbstention(answer);
  const label = abstains ? null : parseFinalLabel(answer, input.labelSet, { negation: hasPatch(PATCHES.toolMadLabelNegation) });

  ctx.step('scoring');
  const [faithfulness, relevance] = abstains
    ? [{ score: null, statements: 0, supported: 0 }, { questions: [], cosines: [], noncommittal: true }]
    : await Promise.all([scoreFaithfulness(input, answer, documents, ctx), scoreRelevance(input, answer, ctx)]);
  ctx.step('done');

  const scores: StabilityScores = {
    faithfulness: faithfulness.score,
    answerRelevance: answerRelevanceOf(relevance.cosines, relevance.noncommittal, settings.noncommittalPenalty),
    statements: faithfulness.statements,
    supportedStatements: faithfulness.supported,
    questions: relevance.questions,
    cosines: relevance.cosines,
    noncommittal: relevance.noncommittal,
  };
  return {
    debater: debater.id,
    tool: debater.tool,
    round: input.round,
    query,
    queryParsedOk: parsedOk,
    documents,
    ...(toolError ? { toolError } : {}),
    answer,
    label,
    verdict: label === null ? null : verdictOfLabel(input.labelSet, label),
    scores,
  };
}

/** Round 1 from the claim alone; later rounds also from the own previous query and the others' answers. */
async function formulateQuery(
  input: ToolMadRoundInput,
  debater: Debater,
  own: PreviousTurn | undefined,
  others: { debater: string; answer: string }[],
  ctx: TurnContext,
): Promise<{ query: string | null; parsedOk: boolean }> {
  const { claim, settings } = input;
  if (debater.tool === 'vanilla') return { query: null, parsedOk: true };
  if (!settings.queryFormulation) return { query: claim, parsedOk: true };
  if (input.round === 1 && settings.initialQuery === 'claim') return { query: claim, parsedOk: true };
  const previousQuery = own?.query ?? undefined;
  const { query } = await ctx.llm<ToolMadQueryOutput>({
    task: 'tool-mad.query',
    model: input.model,
    variables: { tool: debater.tool, claim, ...(previousQuery ? { previousQuery } : {}), ...(others.length > 0 ? { otherAnswers: others } : {}) },
  }, { value: { query: '' }, description: 'previous query (or the claim)' });
  return parseQuery(query, previousQuery ?? claim);
}

async function retrieve(
  input: ToolMadRoundInput,
  debater: Debater,
  query: string,
  ctx: TurnContext,
): Promise<{ documents: ToolMadDocument[]; toolError?: string }> {
  if (debater.tool === 'rag') {
    const mode = input.settings.ragMode ?? input.rag.mode;
    const args = { query, index: input.rag.index, k: input.settings.ragTopK, ...(mode ? { mode } : {}) };
    const summary = toolCallSummary('retrieve_passages', { query });
    const { passages } = await shortReads().retrievePassages.executeWithOptions({ summary: methodStepSummary('tool-mad', `round ${input.round}`, `${debater.id} debater`, summary) }, [args]);
    ctx.meter.recordToolCall({ summary, tool: 'retrieve_passages', args, observation: passages.map((p) => `${p.id} ${p.title}`).join('\n') });
    return { documents: passages.map((p) => ({ id: p.id, title: p.title, text: p.text, source: 'rag', score: p.score })) };
  }
  const args = { query, max_results: input.settings.searchResults };
  const searchSummary = methodStepSummary('tool-mad', `round ${input.round}`, `${debater.id} debater`, toolCallSummary('web_search', args));
  const result = await callTool('web_search', args, searchSummary).catch((err: unknown) => {
    ctx.meter.recordToolCall(toolCallRecord('web_search', args, { error: (err as Error).message }));
    throw err;
  });
  ctx.meter.recordToolCall(toolCallRecord('web_search', args, result));
  if (result.isError) return { documents: [], toolError: result.observation };
  const results = (result.data as { results?: { title?: string; url?: string; snippet?: string }[] } | undefined)?.results ?? [];
  const documents: ToolMadDocument[] = results
    .filter((r) => typeof r.url === 'string' && r.url !== '')
    .slice(0, input.settings.searchResults)
    .map((r) => ({ id: r.url!, title: r.title ?? '', text: r.snippet ?? '', source: 'search' }));
  return { documents };
}

/** F: the answer's statements (label line left out) checked against the debater's own documents. */
async function scoreFaithfulness(
  input: ToolMadRoundInput,
  answer: string,
  documents: ToolMadDocument[],
  ctx: TurnContext,
): Promise<{ score: number | null; statements: number; supported: number }> {
  const none = { score: null, statements: 0, supported: 0 };
  if (documents.length === 0) return none;
  const reasoning = input.settings.stripLabelLine ? withoutLabelLine(answer, input.labelSet) : answer.trim();
  if (reasoning === '') return none;
  const { statements } = await ctx.llm<ToolMadStatementsOutput>({
    task: 'tool-mad.statements',
    model: input.model,
    variables: { claim: input.claim, answer: reasoning },
  }, { value: { statements: [] }, description: 'no statements (faithfulness unscored)' });
  const kept = statements.map((s) => s.trim()).filter((s) => s !== '');
  if (kept.length === 0) return none;
  const { verdicts } = await ctx.llm<ToolMadVerifyOutput>({
    task: 'tool-mad.verify-statements',
    model: input.model,
    variables: { documents: promptDocuments(documents), statements: kept },
  }, { value: { verdicts: [] }, description: 'every statement unsupported' });
  // One verdict per statement; a missing verdict counts as unsupported.
  const values = kept.map((_, i) => (verdicts[i]?.verdict === 1 ? 1 : 0));
  return { score: faithfulnessOf(values), statements: kept.length, supported: values.filter((v) => v === 1).length };
}

/** AR: n questions generated from the answer, each compared with the claim by embedding cosine. */
async function scoreRelevance(
  input: ToolMadRoundInput,
  answer: string,
  ctx: TurnContext,
): Promise<{ questions: string[]; cosines: number[]; noncommittal: boolean }> {
  if (answer.trim() === '') return { questions: [], cosines: [], noncommittal: true };
  const count = input.settings.relevanceQuestions;
  const generated = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      ctx.llm<ToolMadQuestionOutput>({ task: 'tool-mad.question', model: input.model, variables: { answer, index: i + 1, count } }, { value: { question: '', noncommittal: 0 }, description: 'no question' }),
    ),
  );
  const questions = generated.map((g) => g.question.trim()).filter((q) => q !== '');
  const { cosines } = await shortReads().toolMadQuestionSimilarity.executeWithOptions({ summary: methodStepSummary('tool-mad', 'relevance · question similarity', `${questions.length} questions`) }, [
    {
      claim: input.claim,
      questions,
      ...(input.settings.relevanceEmbeddingModel ? { model: input.settings.relevanceEmbeddingModel } : {}),
    },
  ]);
  return { questions, cosines, noncommittal: generated.some((g) => g.noncommittal === 1) };
}

/** What each Tool-MAD task does in a debater's turn, as the Temporal UI names it. */
const TASK_STAGES: Record<string, string> = {
  'tool-mad.query': 'query',
  'tool-mad.answer': 'answer',
  'tool-mad.statements': 'faithfulness',
  'tool-mad.verify-statements': 'faithfulness',
  'tool-mad.question': 'answer relevance',
};

function otherAnswers(previous: PreviousTurn[] | undefined, self: string): { debater: string; answer: string }[] {
  return (previous ?? []).filter((p) => p.debater !== self).map((p) => ({ debater: p.debater, answer: p.answer }));
}

function promptDocuments(documents: ToolMadDocument[]): { id: string; title: string; text: string }[] {
  return documents.map(({ id, title, text }) => ({ id, title, text }));
}
