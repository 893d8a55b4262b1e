import { methodStepSummary } from '../../../shared/activity-summaries';
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { FireFinalAnswerOutput } from '../tasks';
import type { WebResult } from '../../../search/types';
import { FAILURE_TYPES } from '../../../shared/constants';
import { FIRE_NO_ANSWER_METHOD_LABEL, resolveFireSettings, type FireSettings } from './fire-settings';
import { lexicalSimilarity } from './fire-similarity';
import { readFireAnswer, readFireStep, type FireStepOutput } from './fire-step';
import { readReleasedFinal, readReleasedStep, releasedAnswerLabel, releasedSearchText } from './released-prompts';
import type { MethodTrace } from '../../../shared/verify';
import { shortReads } from '../../../../workflows/es-activities';
import type { MethodOutcome, MethodRun } from '../../../../workflows/method-run';


/** FIRE's fallback text when a search finds nothing (query_serper.py). */
const NO_RESULT = 'No good Google Search result was found';

interface Knowledge {
  query: string;
  result: string;
}

/** A readable step: an answer (undefined: the released code's final_answer was neither True nor False, `given`) or one search. */
type StepDecision = { kind: 'answer'; answer: boolean | undefined; confidence: number | null; given?: unknown } | { kind: 'search'; query: string };

type FireStop = 'answered' | 'similar-query' | 'similar-results' | 'max-steps' | 'unreadable';

interface FireStepTrace {
  step: number;
  attempts: number;
  decision: 'answer' | 'search' | 'unreadable';
  answer?: boolean;
  confidence?: number | null;
  query?: string;
  /** The similarity that stopped the search early. */
  similarity?: number;
}

interface FireTrace extends MethodTrace {
  method: 'fire';
  settings: FireSettings;
  steps: FireStepTrace[];
  searches: string[];
  stop?: FireStop;
  forcedFinalAttempts?: number;
  final?: boolean | null;
}

/**
 * FIRE (spec §6.1, eval/fire/verify_atomic_claim.py): at each step one LLM call either answers
 * True/False or asks for one more search; at most maxSteps searches; a search that would repeat
 * the previous query, or results that repeat each other, end the search early; then a final
 * answer is forced.
 */
export async function runFire(run: MethodRun): Promise<MethodOutcome> {
  const { input, progress } = run;
  const settings = resolveFireSettings(input.settings?.fire);
  const trace: FireTrace = { method: 'fire', settings, steps: [], searches: [] };
  const knowledge: Knowledge[] = [];
  const variables = (attempt: number) => ({ claim: input.claim, knowledge, attempt });
  const released = settings.releasedPrompts;
  // The released prompts: the same text on every try (the code's retries re-send it unchanged).
  const releasedVariables = (template: string) => ({ system: released!.system, template, claim: input.claim, results: knowledge.map((k) => k.result) });
  const answerOrSearch = () =>
    released
      ? untilReadable(settings, () => run.llm<{ text: string }>({ task: 'fire.released.step', model: input.model, variables: releasedVariables(released.step) }), (output): StepDecision | undefined => {
          const read = readReleasedStep(output.text);
          if (read.kind === 'unparseable') return undefined;
          return read.kind === 'search' ? read : { kind: 'answer', answer: releasedAnswerLabel(read.answer), confidence: null, given: read.answer };
        })
      : untilReadable(settings, (attempt) => run.llm<FireStepOutput>({ task: 'fire.step', model: input.model, variables: variables(attempt) }), (output): StepDecision | undefined => {
          const read = readFireStep(output);
          return read.kind === 'unparseable' ? undefined : read;
        });

  for (let step = 1; step <= settings.maxSteps; step++) {
    progress.stage = 'answer-or-search';
    const { decision, attempts } = await answerOrSearch();
    const stepTrace: FireStepTrace = { step, attempts, decision: decision?.kind ?? 'unreadable' };
    trace.steps.push(stepTrace);
    run.publishTrace(trace);
    if (!decision) {
      trace.stop = 'unreadable';
      break;
    }
    if (decision.kind === 'answer') {
      trace.stop = 'answered';
      const { answer } = decision;
      if (answer === undefined) {
        // The released code returns any final_answer it is given; only True and False are labels.
        trace.final = null;
        run.publishTrace(trace);
        return { label: 'NEI', methodLabel: FIRE_NO_ANSWER_METHOD_LABEL, rationale: `FIRE's final answer at step ${step} was ${JSON.stringify(decision.given)}, neither True nor False.`, citedPassageIds: [], evidence: evidenceOf(knowledge), trace };
      }
      Object.assign(stepTrace, { answer, confidence: decision.confidence });
      return outcome(trace, knowledge, answer, `FIRE answered ${answer ? 'True' : 'False'} at step ${step} after ${knowledge.length} search(es)`);
    }
    stepTrace.query = decision.query;
    const repeated = await earlyStop(settings, decision.query, knowledge);
    if (repeated) {
      stepTrace.similarity = repeated.similarity;
      trace.stop = repeated.reason;
      break;
    }
    progress.stage = 'searching';
    knowledge.push({ query: decision.query, result: await search(run, decision.query, settings.resultsPerSearch, released !== undefined) });
    trace.searches.push(decision.query);
    run.publishTrace(trace);
  }
  trace.stop ??= 'max-steps';

  progress.stage = 'final-answer';
  const forced = released
    ? await untilReadable(settings, () => run.llm<{ text: string }>({ task: 'fire.released.finalAnswer', model: input.model, variables: releasedVariables(released.final) }), (output) => readReleasedFinal(output.text))
    : await untilReadable(settings, (attempt) => run.llm<FireFinalAnswerOutput>({ task: 'fire.finalAnswer', model: input.model, variables: variables(attempt) }), (output) => readFireAnswer(output.final_answer));
  trace.forcedFinalAttempts = forced.attempts;
  if (forced.decision === undefined) {
    trace.final = null;
    run.publishTrace(trace);
    // FIRE's code counts such a claim as failed and leaves it out of its metrics; the report does so
    // under `protocol: paper` and otherwise scores it as no valid answer (src/report/claim-rows.ts).
    return { label: 'NEI', methodLabel: FIRE_NO_ANSWER_METHOD_LABEL, rationale: `FIRE gave no readable final answer in ${forced.attempts} attempts (stop: ${trace.stop}).`, citedPassageIds: [], evidence: evidenceOf(knowledge), trace };
  }
  return outcome(trace, knowledge, forced.decision, `FIRE's forced final answer was ${forced.decision ? 'True' : 'False'} after ${knowledge.length} search(es) (stop: ${trace.stop})`);
}

/**
 * One step with FIRE's retries: up to maxRetries + 1 tries until the answer can be read; an answer
 * that fails the task's schema counts as unreadable too.
 */
async function untilReadable<O, D>(
  settings: FireSettings,
  call: (attempt: number) => Promise<{ output: O }>,
  read: (output: O) => D | undefined,
): Promise<{ decision: D | undefined; attempts: number }> {
  for (let attempt = 1; attempt <= settings.maxRetries + 1; attempt++) {
    try {
      const decision = read((await call(attempt)).output);
      if (decision !== undefined) return { decision, attempts: attempt };
    } catch (err) {
      if (!isInvalidOutput(err)) throw err;
    }
  }
  return { decision: undefined, attempts: settings.maxRetries + 1 };
}

function isInvalidOutput(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === FAILURE_TYPES.llmOutputInvalid;
}

/** FIRE's early stop: the proposed query repeats the previous one, or the last two results repeat each other. */
async function earlyStop(settings: FireSettings, query: string, knowledge: Knowledge[]): Promise<{ reason: FireStop; similarity: number } | undefined> {
  if (settings.similarity === 'off') return undefined;
  const similarity = (a: string, b: string) => (settings.similarity === 'lexical' ? Promise.resolve(lexicalSimilarity(a, b)) : shortReads().fireTextSimilarity.executeWithOptions({ summary: methodStepSummary('fire', 'early stop · similarity') }, [{ a, b }]));
  const [previous, last] = [knowledge.at(-2), knowledge.at(-1)];
  if (last) {
    const queries = await similarity(query, last.query);
    if (queries > settings.similarityThreshold) return { reason: 'similar-query', similarity: queries };
  }
  if (previous && last) {
    const results = await similarity(previous.result, last.result);
    if (results > settings.similarityThreshold) return { reason: 'similar-results', similarity: results };
  }
  return undefined;
}

/** FIRE joins the top-k organic snippets into one result text (as given by the released code, else whitespace-normalised). */
async function search(run: MethodRun, query: string, k: number, asReleased: boolean): Promise<string> {
  const response = await run.tool('web_search', { query, max_results: k });
  const results = response.isError ? [] : ((response.data as { results?: WebResult[] } | undefined)?.results ?? []);
  if (asReleased) return releasedSearchText(results.map((r) => r.snippet));
  const text = results
    .map((r) => r.snippet.replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '')
    .join(' ');
  return text === '' ? NO_RESULT : text;
}

function evidenceOf(knowledge: Knowledge[]): MethodOutcome['evidence'] {
  return knowledge.map((k, i) => ({ id: `fire-search-${i + 1}`, docId: k.query, title: k.query, text: k.result, score: 1 }));
}

function outcome(trace: FireTrace, knowledge: Knowledge[], answer: boolean, rationale: string): MethodOutcome {
  trace.final = answer;
  const evidence = evidenceOf(knowledge);
  return {
    label: answer ? 'SUPPORTED' : 'REFUTED',
    methodLabel: answer ? 'true' : 'false',
    rationale: `${rationale}.`,
    citedPassageIds: evidence.map((e) => e.id),
    evidence,
    trace,
  };
}
