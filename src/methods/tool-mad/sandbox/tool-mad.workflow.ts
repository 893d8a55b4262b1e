import { ApplicationFailure, executeChild, workflowInfo } from '@temporalio/workflow';
import type { ToolMadJudgeOutput } from '../tasks';
import { FAILURE_TYPES, type VerdictLabel } from '../../../shared/constants';
import { debaterIds, findToolMadSettingsProblem, resolveToolMadSettings, type ToolMadSettings } from './tool-mad-settings';
import type { AverageScores, DebateRound, DebaterTurn } from './tool-mad-debate';
import { labelTexts, parseFinalLabel, resolveLabelSetName, verdictOfLabel, type ResolvedLabelSetName } from './tool-mad-labels';
import { averageScores, decideRound, fallbackVerdict } from './tool-mad-scores';
import type { RetrievalMode } from '../../../shared/retrieval';
import type { EvidencePassage, MethodTrace } from '../../../shared/verify';
import type { MethodOutcome, MethodRun } from '../../../../workflows/method-run';
import { shortReads } from '../../../../workflows/es-activities';
import { REASK_SUFFIX } from '../../../shared/invalid-answer';
import { NO_VALID_ANSWER_RATIONALE, toolMadNoAnswerLabel } from '../../../shared/methods/invalid-answer-fallbacks';
import { askWithOneReask } from '../../../../workflows/invalid-answers';
import { PATCHES } from '../../../shared/patches';
import { toolMadRoundWorkflow } from './tool-mad-round.workflow';
import { hasPatch } from '../../../../workflows/has-patch';

interface JudgeRecord {
  answer: string;
  label: string | null;
  /** Set when the judge's label was unparseable and the stability-score fallback decided. */
  fallbackFrom?: string | null;
  /** Set when the judge gave no valid answer even when re-asked: the verdict is NEI. */
  invalidAnswer?: string;
}

/**
 * Tool-MAD (Jeong et al. 2026, Algorithm 1): debaters with different tools argue over up to T
 * rounds, each round a child workflow; the debate stops early when all agree and every answer
 * passes the faithfulness and answer-relevance gates, otherwise the judge decides from the
 * history and the mean scores.
 */
export async function runToolMad(run: MethodRun): Promise<MethodOutcome> {
  const { input, progress } = run;
  const settings = resolveToolMadSettings(input.settings?.['tool-mad']);
  const problem = findToolMadSettingsProblem(settings);
  if (problem) throw ApplicationFailure.nonRetryable(`invalid tool-mad settings: ${problem}`, FAILURE_TYPES.invalidInput);
  const labelSet = resolveLabelSetName(settings.labelSet, input.dataset, { specDefaults: hasPatch(PATCHES.toolMadSpecLabelSets) });
  const ids = debaterIds(settings.debaters);
  const debaters = settings.debaters.map((tool, i) => ({ id: ids[i]!, tool }));

  const ragRetrieval = await ragRetrievalOf(input.rag, settings);
  const rag = { index: input.rag.index, ...(ragRetrieval?.mode ? { mode: ragRetrieval.mode } : {}) };

  const rounds: DebateRound[] = [];
  const publish = (extra: Record<string, unknown> = {}) => run.publishTrace(debateTrace(settings, labelSet, rounds, { ...(ragRetrieval ? { ragRetrieval } : {}), ...extra }));

  for (let r = 1; r <= settings.maxRounds; r++) {
    progress.stage = `debate round ${r}`;
    const workflowId = `${workflowInfo().workflowId}/round-${r}`;
    // The child answers `roundState` with each debater's step while the round runs.
    publish({ running: { round: r, workflowId } });
    const previous = rounds.at(-1)?.turns.map((t) => ({ debater: t.debater, query: t.query, answer: t.answer }));
    const result = await executeChild(toolMadRoundWorkflow, {
      workflowId,
      staticSummary: `tool-mad · round ${r}/${settings.maxRounds} · ${debaters.map((d) => d.id).join(', ')}`,
      staticDetails: `**Claim:** ${input.claim}\n\n**Round** ${r} of at most ${settings.maxRounds} · **debaters:** ${debaters.map((d) => `${d.id} (${d.tool})`).join(', ')}`,
      args: [
        {
          claim: input.claim,
          model: input.model,
          round: r,
          settings,
          labelSet,
          rag,
          debaters,
          ...(previous ? { previous } : {}),
          // A round's calls go through the sweep's batch lane too (older inputs have none).
          ...(input.batch ? { batch: input.batch } : {}),
        },
      ],
    });
    run.absorbChild(result.meter);

    const decision = decideRound(result.turns, settings);
    rounds.push({ round: r, workflowId, turns: result.turns, labelsAgree: decision.labelsAgree, gatesPassed: decision.gatesPassed });
    publish();
    if (decision.stops) {
      const deciding = result.turns[0]!;
      const trace = debateTrace(settings, labelSet, rounds, { ...(ragRetrieval ? { ragRetrieval } : {}), decidedBy: 'consensus', roundsUsed: r });
      run.publishTrace(trace);
      return outcome(deciding.verdict!, deciding.label!, deciding.answer, result.turns, rounds, trace);
    }
  }

  progress.stage = 'judging';
  const averages = averageScores(rounds);
  const judge = await judgeDebate(run, settings, labelSet, rounds, averages);
  const trace = debateTrace(settings, labelSet, rounds, { ...(ragRetrieval ? { ragRetrieval } : {}), decidedBy: 'judge', roundsUsed: rounds.length, averages, judge: judge.record });
  run.publishTrace(trace);
  return outcome(judge.verdict, judge.label, judge.record.answer, rounds.at(-1)!.turns, rounds, trace);
}

/** How the RAG debater retrieves, as the trace records it. */
export interface RagRetrievalChoice {
  mode: RetrievalMode;
  /** `setting`: the tool-mad ragMode or the input's mode; `default`: dense where the index has vectors. */
  chosenBy: 'setting' | 'default';
  /** Set when the paper's dense retrieval was not possible. */
  notice?: string;
}

/**
 * The paper's RAG debater retrieves dense top-3. Unless a mode is configured, new runs use dense
 * where the index has passage vectors, and BM25 with a notice where it has none. Null: no RAG
 * debater, or a history recorded before the default (the input's mode, BM25 when absent).
 */
async function ragRetrievalOf(rag: { index: string; mode?: RetrievalMode }, settings: ToolMadSettings): Promise<RagRetrievalChoice | null> {
  if (!settings.debaters.includes('rag')) return null;
  const configured = settings.ragMode ?? rag.mode;
  if (configured) return { mode: configured, chosenBy: 'setting' };
  if (!hasPatch(PATCHES.toolMadDenseDefault)) return null;
  const { embedded } = await shortReads().passageIndexHasEmbeddings({ index: rag.index });
  if (embedded) return { mode: 'dense', chosenBy: 'default' };
  return {
    mode: 'bm25',
    chosenBy: 'default',
    notice: `index "${rag.index}" has no passage embeddings, so the RAG debater retrieves with BM25 instead of the paper's dense retrieval (ingest it with --embed for dense)`,
  };
}

async function judgeDebate(
  run: MethodRun,
  settings: ToolMadSettings,
  labelSet: ResolvedLabelSetName,
  rounds: DebateRound[],
  averages: AverageScores[],
): Promise<{ verdict: VerdictLabel; label: string; record: JudgeRecord }> {
  const cut = (text: string) => (text.length > settings.judgeDocumentChars ? `${text.slice(0, settings.judgeDocumentChars)}…` : text);
  const judged = await askWithOneReask((call, reask) => run.llm<ToolMadJudgeOutput>(call, reask ? `judge${REASK_SUFFIX}` : undefined), {
    task: 'tool-mad.judge',
    model: run.input.model,
    variables: {
      claim: run.input.claim,
      labels: labelTexts(labelSet),
      rounds: rounds.map((round) => ({
        round: round.round,
        turns: round.turns.map((t) => ({
          debater: t.debater,
          tool: t.tool,
          query: t.query,
          documents: t.documents.map((d) => ({ id: d.id, title: d.title, text: cut(d.text) })),
          answer: t.answer,
        })),
      })),
      ...(settings.judgeSeesScores ? { scores: averages } : {}),
    },
  });
  if (!judged.ok) {
    // No valid judge answer even when re-asked: the deterministic fallback of an unparseable judge label
    // (spec tool-mad.md §10 #9: the debater with the higher mean stability score; NEI when none has a label).
    const fallback = fallbackVerdict(rounds, averages);
    return {
      verdict: fallback.verdict,
      label: fallback.label ?? toolMadNoAnswerLabel(labelSet),
      record: { answer: `${NO_VALID_ANSWER_RATIONALE}: ${judged.problem}`, label: null, fallbackFrom: fallback.debater, invalidAnswer: judged.problem },
    };
  }
  const { output } = judged.result;
  const label = parseFinalLabel(output.answer, labelSet, { negation: hasPatch(PATCHES.toolMadLabelNegation) });
  const verdict = label === null ? null : verdictOfLabel(labelSet, label);
  if (label !== null && verdict !== null) return { verdict, label, record: { answer: output.answer, label } };
  const fallback = fallbackVerdict(rounds, averages);
  return {
    verdict: fallback.verdict,
    label: fallback.label ?? labelTexts(labelSet).at(-1)!,
    record: { answer: output.answer, label: null, fallbackFrom: fallback.debater },
  };
}

function outcome(
  verdict: VerdictLabel,
  label: string,
  rationale: string,
  decidingTurns: DebaterTurn[],
  rounds: DebateRound[],
  trace: MethodTrace,
): MethodOutcome {
  const evidence = new Map<string, EvidencePassage>();
  for (const round of rounds) {
    for (const turn of round.turns) {
      for (const d of turn.documents) {
        if (!evidence.has(d.id)) evidence.set(d.id, { id: d.id, docId: d.id, title: d.title, text: d.text, score: d.score ?? 0 });
      }
    }
  }
  const cited = [...new Set(decidingTurns.flatMap((t) => t.documents.map((d) => d.id)))];
  return { label: verdict, methodLabel: label, rationale, citedPassageIds: cited, evidence: [...evidence.values()], trace };
}

/** The transcript: per round each debater's query, evidence ids, answer, label and scores. */
function debateTrace(settings: ToolMadSettings, labelSet: ResolvedLabelSetName, rounds: DebateRound[], extra: Record<string, unknown>): MethodTrace {
  return {
    method: 'tool-mad',
    debaters: settings.debaters,
    labelSet,
    maxRounds: settings.maxRounds,
    ...(settings.relevanceEmbeddingModel ? { relevanceEmbeddingModel: settings.relevanceEmbeddingModel } : {}),
    rounds: rounds.map((round) => ({
      round: round.round,
      workflowId: round.workflowId,
      labelsAgree: round.labelsAgree,
      gatesPassed: round.gatesPassed,
      turns: round.turns.map((t) => ({
        debater: t.debater,
        tool: t.tool,
        query: t.query,
        ...(t.queryParsedOk ? {} : { queryParsedOk: false }),
        evidenceIds: t.documents.map((d) => d.id),
        ...(t.toolError ? { toolError: t.toolError } : {}),
        answer: t.answer,
        label: t.label,
        faithfulness: t.scores.faithfulness,
        answerRelevance: t.scores.answerRelevance,
        statements: t.scores.statements,
        supportedStatements: t.scores.supportedStatements,
        questions: t.scores.questions,
        noncommittal: t.scores.noncommittal,
      })),
    })),
    ...extra,
  };
}
