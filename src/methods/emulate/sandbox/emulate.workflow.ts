import type { EmulateAnswerOutput, EmulateExtractOutput, EmulateQueriesOutput, EmulateRankingOutput } from '../tasks';
import type { WebResult } from '../../../search/types';
import { parseTrueFalse, parseYesNo } from './emulate-labels';
import { cleanQuery } from './emulate-query';
import { parseRanking } from './emulate-ranking';
import { releasedAnswerAsOutput } from './released-prompts';
import {
  type EmulateAgent,
  type EmulateSearchResult,
  type EmulateSettings,
  resolveEmulateSettings,
} from './emulate-settings';
import type { InvalidAnswerFallback } from '../../../shared/invalid-answer';
import { EMULATE_INVALID_BINARY_ANSWER } from '../../../shared/methods/invalid-answer-fallbacks';
import type { MethodTrace } from '../../../shared/verify';
import { handledInvalidAnswer } from '../../../../workflows/invalid-answers';
import type { MethodOutcome, MethodRun } from '../../../../workflows/method-run';

/** How the search ended (spec §3): sufficient during the search, in the final pass, or never. */
type EmulateEnding = 'case1-sufficient' | 'case2-final-pass' | 'case3-exhausted';

interface QueryStep {
  query: string;
  origin: 'initial' | 'additional';
  found: number;
  ranked: string[];
  rankFallback: boolean;
  counted: boolean;
}

interface ResultStep {
  link: string;
  phase: 'search' | 'final-pass';
  content?: 'snippet' | 'page' | 'page-failed';
  selfContained?: boolean;
  helpful?: boolean;
  sufficient?: boolean;
}

interface EmulateTrace extends MethodTrace {
  method: 'emulate';
  settings: EmulateSettings;
  queries: QueryStep[];
  results: ResultStep[];
  memory: string[];
  parked: string[];
  calls: Partial<Record<EmulateAgent, number>>;
  /** One-word answers that were neither word (counted as No/False, as the code does). */
  unreadAnswers: number;
  /** Answers that were not valid at all (not JSON, wrong schema, cut off) and what stood in for them. */
  invalidAnswers?: InvalidAnswerFallback[];
  ending?: EmulateEnding;
  classification?: boolean;
}

type Verdict = 'sufficient' | 'insufficient' | 'unhelpful' | 'parked';

/**
 * EMULATE (spec §3, the released cli.py): write a query, rank its results by credibility and
 * relevance, open the top ones, keep those that are comprehensible and helpful, and stop as soon
 * as the evidence is sufficient; otherwise write a follow-up query. Results that could not be
 * understood are checked again at the end; the Classifier answers True or False.
 */
export async function runEmulate(run: MethodRun): Promise<MethodOutcome> {
  const { input, progress } = run;
  const settings = resolveEmulateSettings(input.settings?.emulate);
  const agents = emulateAgents(run, settings);
  const { trace } = agents;

  const memory: EmulateSearchResult[] = [];
  const parked: EmulateSearchResult[] = [];
  const seenLinks = new Set<string>();
  const queue: { query: string; origin: QueryStep['origin'] }[] = [];
  let queriesMade = 0;
  let searches = 0;

  /** Scenarios (a)-(d) of the paper for one opened result. */
  async function consider(result: EmulateSearchResult, phase: ResultStep['phase'], content?: ResultStep['content']): Promise<Verdict> {
    const step: ResultStep = { link: result.link, phase, ...(content ? { content } : {}) };
    trace.results.push(step);
    step.selfContained = await agents.selfContained(memory, result);
    if (!step.selfContained) {
      if (phase === 'search' && !parked.some((p) => p.link === result.link)) parked.push(result);
      return 'parked';
    }
    step.helpful = await agents.helpful(memory, result);
    if (!step.helpful) return 'unhelpful';
    memory.push(result);
    step.sufficient = await agents.sufficient(memory);
    return step.sufficient ? 'sufficient' : 'insufficient';
  }

  async function classify(ending: EmulateEnding): Promise<MethodOutcome> {
    trace.ending = ending;
    trace.memory = memory.map((r) => r.link);
    trace.parked = parked.map((r) => r.link);
    progress.stage = 'classifying';
    const isTrue = await agents.classifier(memory);
    trace.classification = isTrue;
    run.publishTrace(trace);
    const evidence = memory.map((r, i) => ({ id: `emulate-${i + 1}`, docId: r.link, title: r.title, text: r.content ?? r.snippet, score: 1 / (i + 1) }));
    const source = memory.length === 0 ? "the model's own knowledge (no evidence was collected)" : `${memory.length} collected search result(s)`;
    return {
      label: isTrue ? 'SUPPORTED' : 'REFUTED',
      methodLabel: isTrue ? 'true' : 'false',
      rationale: `EMULATE classified the claim as ${isTrue ? 'True' : 'False'} from ${source} after ${queriesMade} search quer${queriesMade === 1 ? 'y' : 'ies'} (${ending}).`,
      citedPassageIds: evidence.map((e) => e.id),
      evidence,
      trace,
    };
  }

  progress.stage = 'writing-query';
  for (const query of await agents.initialQueries()) queue.push({ query, origin: 'initial' });

  // Serper is called at most maxSearchQueries times even when queries come back empty (spec §7.3).
  while (queue.length > 0 && queriesMade < settings.maxSearchQueries && searches < settings.maxSearchQueries) {
    const { query, origin } = queue.shift()!;
    progress.stage = 'searching';
    const found = await agents.search(query);
    searches += 1;
    const fresh = found.filter((r) => !memory.some((m) => m.link === r.link) && !(settings.dedupeSeenLinks && seenLinks.has(r.link)));
    progress.stage = 'ranking';
    const { ranked, fallback } = await agents.rank(query, fresh);
    const opened = ranked.slice(0, settings.maxSearchResultsPerQuery);
    const step: QueryStep = { query, origin, found: found.length, ranked: opened.map((r) => r.link), rankFallback: fallback, counted: opened.length > 0 };
    trace.queries.push(step);
    if (step.counted) queriesMade += 1;
    run.publishTrace(trace);

    for (const result of opened) {
      seenLinks.add(result.link);
      progress.stage = 'reading';
      const { contentSource, ...visited } = await agents.visit(result);
      const verdict = await consider(visited, 'search', contentSource);
      run.publishTrace(trace);
      if (verdict === 'sufficient') return classify('case1-sufficient');
      if (verdict === 'insufficient') {
        progress.stage = 'writing-query';
        const next = await agents.additionalQueries(memory);
        queue.unshift(...next.map((q) => ({ query: q, origin: 'additional' as const })));
        break;
      }
    }
  }

  // The final pass: parked results may be understandable now that the memory bank has grown.
  progress.stage = 'final-pass';
  for (const result of [...parked]) {
    if (!settings.codeCompat && memory.some((m) => m.link === result.link)) continue;
    const verdict = await consider(result, 'final-pass');
    run.publishTrace(trace);
    if (verdict === 'sufficient') return classify('case2-final-pass');
  }
  return classify('case3-exhausted');
}

/** The agents as calls of the method's LLM tasks and tools, counted into the trace. */
function emulateAgents(run: MethodRun, settings: EmulateSettings) {
  const { input } = run;
  const trace: EmulateTrace = { method: 'emulate', settings, queries: [], results: [], memory: [], parked: [], calls: {}, unreadAnswers: 0 };
  const strict = settings.strictParsing;
  const asEvidence = (r: EmulateSearchResult) => ({ title: r.title, link: r.link, content: r.content ?? r.snippet });

  async function ask<T>(agent: EmulateAgent, variables: Record<string, unknown>): Promise<T> {
    trace.calls[agent] = (trace.calls[agent] ?? 0) + 1;
    const released = settings.releasedPrompts;
    if (released) {
      const answer = await run.llm<{ text: string }>({ task: `emulate.released.${agent}`, model: input.model, variables: { ...variables, template: released.templates[agent] } });
      return releasedAnswerAsOutput(agent, answer.output.text) as T;
    }
    const result = await run.llm<T>({ task: `emulate.${agent}`, model: input.model, variables });
    return result.output;
  }

  /**
   * An invalid answer is not re-asked: the released code takes whatever the model wrote and falls
   * back at once (No/False for the binary agents, engine order for SearchRank, the snippet for the
   * extractor). Undefined: the answer was invalid; the fallback is noted in the trace.
   */
  async function askOrFallback<T>(agent: EmulateAgent, variables: Record<string, unknown>, fallback: string): Promise<T | undefined> {
    try {
      return await ask<T>(agent, variables);
    } catch (err) {
      const invalid = handledInvalidAnswer(err);
      if (!invalid) throw err;
      (trace.invalidAnswers ??= []).push({ step: agent, problem: invalid.problem, fallback });
      return undefined;
    }
  }

  async function yesNo(agent: EmulateAgent, variables: Record<string, unknown>): Promise<boolean> {
    const output = await askOrFallback<EmulateAnswerOutput>(agent, variables, 'No');
    if (output === undefined) {
      trace.unreadAnswers += 1;
      return EMULATE_INVALID_BINARY_ANSWER;
    }
    const read = parseYesNo(output.answer, strict);
    if (!read.understood) trace.unreadAnswers += 1;
    return read.value;
  }

  const queries = (output: EmulateQueriesOutput) =>
    output.queries
      .map((q) => cleanQuery(q, settings.codeCompat))
      .filter((q) => q.trim() !== '')
      .slice(0, settings.queriesPerGeneration);

  return {
    trace,
    async initialQueries(): Promise<string[]> {
      const output = await askOrFallback<EmulateQueriesOutput>('initialQuery', { claim: input.claim, count: settings.queriesPerGeneration }, 'no query');
      return output ? queries(output) : [];
    },
    async additionalQueries(memory: EmulateSearchResult[]): Promise<string[]> {
      const output = await askOrFallback<EmulateQueriesOutput>('additionalQuery', { claim: input.claim, memory: memory.map(asEvidence), count: settings.queriesPerGeneration }, 'no query');
      return output ? queries(output) : [];
    },
    /** Organic results with a snippet, in engine order. */
    async search(query: string): Promise<EmulateSearchResult[]> {
      if (query.trim() === '') return [];
      const response = await run.tool('web_search', { query, max_results: settings.resultsPerSearch });
      if (response.isError) return [];
      const results = ((response.data as { results?: WebResult[] } | undefined)?.results ?? []).filter((r) => r.snippet.trim() !== '');
      return results.sort((a, b) => a.position - b.position).map((r) => ({ title: r.title, link: r.url, snippet: r.snippet, position: r.position }));
    },
    async rank(query: string, results: EmulateSearchResult[]): Promise<{ ranked: EmulateSearchResult[]; fallback: boolean }> {
      // The code ranks even an empty list (a wasted call that falls back); otherwise skip it (spec §7.8).
      const skip = !settings.searchRank || (results.length === 0 && !settings.codeCompat);
      if (skip) return { ranked: results, fallback: false };
      const output = await askOrFallback<EmulateRankingOutput>(
        'searchRank',
        { query, results: results.map(({ position, title, link, snippet }) => ({ position, title, link, snippet })) },
        'engine order',
      );
      // The code's fallback on any failure: the engine's order (spec §2.2).
      if (output === undefined) return { ranked: results, fallback: true };
      const read = parseRanking(output.ranking, results.map((r) => r.position), settings.codeCompat);
      const byPosition = new Map(results.map((r) => [r.position, r]));
      return { ranked: read.positions.map((p) => byPosition.get(p)!), fallback: read.fallback };
    },
    /** Opening a result: its snippet, or the page through the page reader and the WebPageExtractor (snippet on failure). */
    async visit(result: EmulateSearchResult): Promise<EmulateSearchResult & { contentSource: NonNullable<ResultStep['content']> }> {
      if (settings.contentMode === 'snippet') return { ...result, content: result.snippet, contentSource: 'snippet' };
      const chunks: string[] = [];
      for (let chunk = 1; chunk <= settings.pageChunks; chunk++) {
        const page = await run.tool('read_page', { url: result.link, chunk });
        if (page.isError) break;
        const data = page.data as { text?: string; chunks?: number } | undefined;
        if (data?.text) chunks.push(data.text);
        if (!data || chunk >= (data.chunks ?? 0)) break;
      }
      if (chunks.length === 0) return { ...result, content: result.snippet, contentSource: 'page-failed' };
      const extracted = await askOrFallback<EmulateExtractOutput>('webPageExtractor', { url: result.link, pageText: chunks.join('\n') }, 'snippet');
      // The code's fallback on any failure: the snippet (spec §2.3).
      const extractedText = extracted?.extractedText ?? '';
      return extractedText.trim() === ''
        ? { ...result, content: result.snippet, contentSource: 'page-failed' }
        : { ...result, content: extractedText, contentSource: 'page' };
    },
    async selfContained(memory: EmulateSearchResult[], result: EmulateSearchResult): Promise<boolean> {
      if (!settings.selfContainedCheck) return true;
      return yesNo('selfContained', { claim: input.claim, memory: memory.map(asEvidence), result: asEvidence(result) });
    },
    helpful(memory: EmulateSearchResult[], result: EmulateSearchResult): Promise<boolean> {
      return yesNo('helpful', { claim: input.claim, memory: memory.map(asEvidence), result: asEvidence(result) });
    },
    sufficient(memory: EmulateSearchResult[]): Promise<boolean> {
      return yesNo('sufficient', { claim: input.claim, memory: memory.map(asEvidence) });
    },
    async classifier(memory: EmulateSearchResult[]): Promise<boolean> {
      const output = await askOrFallback<EmulateAnswerOutput>('classifier', { claim: input.claim, memory: memory.map(asEvidence) }, 'False');
      if (output === undefined) {
        trace.unreadAnswers += 1;
        return EMULATE_INVALID_BINARY_ANSWER;
      }
      const read = parseTrueFalse(output.answer, strict);
      if (!read.understood) trace.unreadAnswers += 1;
      return read.value;
    },
  };
}
