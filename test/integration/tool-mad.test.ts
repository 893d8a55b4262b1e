import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { ingestCorpus } from '../../src/corpus/ingest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { indexName } from '../../src/es/indices';
import { passageEmbedder, queryEmbedder } from '../../src/retrieval/embedder';
import { retrievePassages } from '../../src/retrieval/retrieve';
import { DEMO_CORPUS } from '../support/test-env';
import type { ToolMadSettings } from '../../src/methods/tool-mad/sandbox/tool-mad-settings';
import type { RoundProgress } from '../../src/methods/tool-mad/sandbox/tool-mad-debate';
import { fullVerdict, type MethodTrace, type Verdict, type VerifyClaimInput } from '../../src/shared/verify';
import { verifyClaimWorkflow } from '../../workflows';
import { traceQuery } from '../../src/shared/definitions/verify';
import { toolMadRoundStateQuery } from '../../src/methods/tool-mad/sandbox/tool-mad-round.workflow';
import { uniqueName } from '../support/test-env';
import { activitySummaries, workflowMetadata } from '../support/history-summaries';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/** The recorded web of this test: one page states the Eiffel Tower fact, one is unrelated. */
const WEB_PAGES = [
  {
    id: 'web:eiffel',
    title: 'Eiffel Tower history',
    text: "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris, France.",
    sentences: null,
    source: 'test-web',
  },
  { id: 'web:bread', title: 'Sourdough bread', text: 'Sourdough bread is leavened with wild yeast and lactic acid bacteria.', sentences: null, source: 'test-web' },
];

const EIFFEL = "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris.";
const CURIE = 'Marie Curie won her Nobel Prize in Chemistry in 1921.';

interface TurnTrace {
  debater: string;
  tool: string;
  query: string | null;
  evidenceIds: string[];
  answer: string;
  label: string | null;
  faithfulness: number | null;
  answerRelevance: number | null;
}
interface ToolMadTrace extends MethodTrace {
  rounds: { round: number; workflowId: string; labelsAgree: boolean; gatesPassed: boolean; turns: TurnTrace[] }[];
  decidedBy?: 'consensus' | 'judge';
  roundsUsed?: number;
  running?: { round: number; workflowId: string };
  ragRetrieval?: { mode: string; chosenBy: string; notice?: string };
  judge?: { answer: string; label: string | null };
  averages?: { debater: string; faithfulness: number | null; answerRelevance: number | null }[];
}

describe('tool-mad on real Temporal and Elasticsearch', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-tool-mad-'));

  beforeAll(async () => {
    // The workflow cache stays on: the debaters' retrievals are concurrent local activities, which a
    // worker without a cache drops on every eviction (the SDK warns so), and the rounds then never
    // finish. Determinism is checked by test/replay/tool-mad.replay.test.ts. The latency keeps each
    // round open long enough to query it while it runs.
    harness = await startWorkerHarness('toolmad', { simulator: { latencyMs: 60 } });
    const file = path.join(tmp, 'web.jsonl');
    fs.writeFileSync(file, WEB_PAGES.map((page) => JSON.stringify(page)).join('\n'));
    await ingestCorpus({ client: harness.es, index: webIndexName(harness.prefix), file, target: WEB_TARGET });
    await harness.es.indices.refresh({ index: webIndexName(harness.prefix) });
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  function inputFor(claim: string, settings: Partial<ToolMadSettings> = {}, dataset?: string): VerifyClaimInput {
    return buildVerifyInput(harness.config, { claim, method: 'tool-mad', settings: { 'tool-mad': settings }, ...(dataset ? { dataset } : {}) });
  }

  /** The llmTask activity inputs a workflow scheduled, read back from its history. */
  async function llmTaskInputs(workflowId: string): Promise<{ task: string; variables: Record<string, unknown> }[]> {
    const history = await harness.client.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? [])
      .map((event) => event.activityTaskScheduledEventAttributes)
      .filter((attributes) => attributes?.activityType?.name === 'llmTask')
      .map((attributes) => JSON.parse(Buffer.from(attributes!.input!.payloads![0]!.data!).toString('utf8')) as { task: string; variables: Record<string, unknown> });
  }

  async function childStatus(workflowId: string) {
    const description = await harness.client.workflow.getHandle(workflowId).describe();
    return { status: description.status.name, parent: description.parentExecution?.workflowId };
  }

  it('stops after round 1 when both debaters agree and pass the gates: 14 LLM calls, the round a child workflow', async () => {
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, inputFor(EIFFEL));
    const verdict = fullVerdict(await handle.result());
    const trace = verdict.trace as ToolMadTrace;

    expect(verdict.label).toBe('SUPPORTED');
    expect(verdict.methodLabel).toBe('SUPPORTS');
    expect(trace).toMatchObject({ method: 'tool-mad', decidedBy: 'consensus', roundsUsed: 1, labelSet: 'fever' });
    expect(trace.rounds).toHaveLength(1);
    expect(trace.rounds[0]).toMatchObject({ labelsAgree: true, gatesPassed: true, workflowId: `${handle.workflowId}/round-1` });
    // The harness's wiki index has no vectors: BM25 instead of the paper's dense retrieval, and the trace says so.
    expect(trace.ragRetrieval).toEqual({ mode: 'bm25', chosenBy: 'default', notice: expect.stringMatching(/has no passage embeddings.*BM25 instead of the paper's dense retrieval/) });
    const [rag, search] = trace.rounds[0]!.turns;
    expect(rag).toMatchObject({ debater: 'rag', tool: 'rag', label: 'SUPPORTS' });
    expect(search).toMatchObject({ debater: 'search', tool: 'search', label: 'SUPPORTS' });
    expect(rag!.evidenceIds[0]).toMatch(/^demo:Eiffel Tower#/);
    expect(search!.evidenceIds[0]).toBe('https://recorded.invalid/web%3Aeiffel');
    for (const turn of [rag!, search!]) {
      expect(turn.faithfulness).toBeGreaterThan(0.7);
      expect(turn.answerRelevance).toBeGreaterThan(0.8);
    }
    // Per debater: query, answer, 2 faithfulness calls, 3 question calls; one retrieval each.
    expect(verdict.usage).toMatchObject({ llmCalls: 14, toolCalls: 2 });
    expect(verdict.citedPassageIds).toEqual(expect.arrayContaining([rag!.evidenceIds[0], search!.evidenceIds[0]]));

    expect(await childStatus(`${handle.workflowId}/round-1`)).toEqual({ status: 'COMPLETED', parent: handle.workflowId });
    // The Temporal UI: the round child says which round and debaters, each of its steps who does what.
    const round = await workflowMetadata(harness.client, `${handle.workflowId}/round-1`);
    expect(round.summary).toMatch(/^tool-mad · round 1\/\d+ · rag, search$/);
    expect(round.details).toContain(`**Claim:** ${EIFFEL}`);
    const summaries = await activitySummaries(harness.client, `${handle.workflowId}/round-1`);
    expect(summaries).toEqual(
      expect.arrayContaining([
        `tool-mad · round 1 · rag debater · query · ${verdict.model}`,
        `tool-mad · round 1 · search debater · faithfulness · ${verdict.model}`,
        `tool-mad · round 1 · rag debater · answer relevance · ${verdict.model}`,
        expect.stringMatching(/^tool-mad · round 1 · rag debater · retrieve_passages\("/),
        expect.stringMatching(/^tool-mad · round 1 · search debater · web_search\("/),
      ]),
    );
    const stored = await harness.deps.verdicts.get(handle.workflowId);
    expect((stored?.trace as ToolMadTrace | undefined)?.rounds[0]?.turns[1]?.evidenceIds).toEqual(search!.evidenceIds);
  });

  it('runs T = 3 rounds and lets the judge decide when the web has no evidence; the transcript is queryable while it runs', async () => {
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, inputFor(CURIE));
    const seen: ToolMadTrace[] = [];
    let roundState: RoundProgress | undefined;
    const finished = handle.result();
    let done = false;
    void finished.finally(() => (done = true));
    while (!done) {
      const trace = (await handle.query(traceQuery).catch(() => null)) as ToolMadTrace | null;
      if (trace?.running) {
        seen.push(trace);
        roundState ??= await harness.client.workflow
          .getHandle(trace.running.workflowId)
          .query(toolMadRoundStateQuery)
          .catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const verdict: Verdict = fullVerdict(await finished);
    const trace = verdict.trace as ToolMadTrace;

    // Seen mid-debate: a later round running with the earlier rounds already in the transcript.
    expect(seen.some((t) => t.running!.round >= 2 && t.rounds.length === t.running!.round - 1)).toBe(true);
    expect(roundState?.workflowId).toMatch(new RegExp(`^${handle.workflowId}/round-\\d$`));
    expect(Object.keys(roundState?.steps ?? {}).sort()).toEqual(['rag', 'search']);

    expect(trace).toMatchObject({ decidedBy: 'judge', roundsUsed: 3 });
    expect(trace.rounds.map((r) => r.round)).toEqual([1, 2, 3]);
    expect(trace.rounds[0]!.turns[0]!.label).toBe('REFUTES');
    expect(trace.rounds[0]!.turns[1]!.label).toBe('NOT ENOUGH INFO');
    expect(trace.rounds.every((r) => !(r.labelsAgree && r.gatesPassed))).toBe(true);
    expect(trace.averages?.map((a) => a.debater)).toEqual(['rag', 'search']);
    expect(trace.judge?.label).toBe(verdict.methodLabel);
    expect(verdict.label).toBe('REFUTED');
    // The paper's worst case: 3 rounds × 14 calls + the judge.
    expect(verdict.usage).toMatchObject({ llmCalls: 43, toolCalls: 6 });
    for (const round of [1, 2, 3]) {
      expect(await childStatus(`${handle.workflowId}/round-${round}`)).toEqual({ status: 'COMPLETED', parent: handle.workflowId });
    }
    // Round 2's query step gets the claim, the debater's own round-1 query and the other's round-1 answer.
    const [first, second] = trace.rounds;
    const queryInputs = (await llmTaskInputs(`${handle.workflowId}/round-2`)).filter((i) => i.task === 'tool-mad.query');
    expect(queryInputs.map((i) => i.variables).sort((a, b) => String(a.tool).localeCompare(String(b.tool)))).toEqual([
      { tool: 'rag', claim: CURIE, previousQuery: first!.turns[0]!.query, otherAnswers: [{ debater: 'search', answer: first!.turns[1]!.answer }] },
      { tool: 'search', claim: CURIE, previousQuery: first!.turns[1]!.query, otherAnswers: [{ debater: 'rag', answer: first!.turns[0]!.answer }] },
    ]);
    expect(second!.turns[1]!.query).toContain('Marie Curie');
  });

  it('rag + vanilla without query formulation: the claim is the query, vanilla never retrieves, consensus in round 2', async () => {
    const { handle } = await startVerification(
      harness.client,
      harness.config.temporal.taskQueue,
      inputFor(EIFFEL, { debaters: ['rag', 'vanilla'], queryFormulation: false }),
    );
    const verdict = fullVerdict(await handle.result());
    const trace = verdict.trace as ToolMadTrace;

    expect(trace).toMatchObject({ decidedBy: 'consensus', roundsUsed: 2 });
    expect(trace.rounds[0]!.labelsAgree).toBe(false);
    for (const round of trace.rounds) {
      const [rag, vanilla] = round.turns;
      expect(rag!.query).toBe(EIFFEL);
      expect(vanilla).toMatchObject({ tool: 'vanilla', query: null, evidenceIds: [], faithfulness: null });
    }
    expect(trace.rounds[1]!.turns[1]!.label).toBe('SUPPORTS');
    // Per round: rag 6 calls (no query step), vanilla 4 (answer + 3 questions; nothing to be faithful to).
    expect(verdict.usage).toMatchObject({ llmCalls: 20, toolCalls: 2 });
  });

  // Issue 37 §2.3, tool-mad.md §10 #11: AVeriTeC's Option A (three labels) by default, Option B (four) by `labelSet: averitec`.
  it("asks AVeriTeC claims with FEVER's three labels by default (Option A) and with AVeriTeC's four under labelSet averitec (Option B)", async () => {
    // A claim of its own per call: an answer already in the request cache would schedule no llmTask to read.
    const labelsAsked = async (settings: Partial<ToolMadSettings>, dataset: string) => {
      const claim = `${CURIE} (${dataset}, ${settings.labelSet ?? 'auto'})`;
      const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, inputFor(claim, { maxRounds: 1, ...settings }, dataset));
      const trace = fullVerdict(await handle.result()).trace as ToolMadTrace & { labelSet: string };
      const answers = (await llmTaskInputs(`${handle.workflowId}/round-1`)).filter((call) => call.task === 'tool-mad.answer');
      expect(answers).toHaveLength(2);
      return { labelSet: trace.labelSet, labels: answers.map((call) => call.variables.labels) };
    };
    const fever = ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'];
    expect(await labelsAsked({}, 'averitec')).toEqual({ labelSet: 'fever', labels: [fever, fever] });
    const four = ['SUPPORTED', 'REFUTED', 'NOT ENOUGH EVIDENCE', 'CONFLICTING EVIDENCE/CHERRYPICKING'];
    expect(await labelsAsked({ labelSet: 'averitec' }, 'averitec')).toEqual({ labelSet: 'averitec', labels: [four, four] });
    // FaVIQ too is asked with the three labels (its NEI answers scored wrong); `binary` is the option.
    expect((await labelsAsked({}, 'faviq')).labelSet).toBe('fever');
  });

  it('fails fast and non-retryably on settings that bypassed the CLI schema', async () => {
    const input = { ...inputFor(EIFFEL), claimId: uniqueName('one-debater'), settings: { 'tool-mad': { debaters: ['rag'] } } } as VerifyClaimInput;
    const error = await harness.client.workflow
      .execute(verifyClaimWorkflow, { workflowId: uniqueName('tool-mad-invalid'), taskQueue: harness.config.temporal.taskQueue, args: [input] })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(String((error as WorkflowFailedError).cause?.message)).toMatch(/tool-mad needs 2 to 4 debaters/);
  });

  it("the RAG debater retrieves dense top-3 by default where the index has vectors (the paper's retriever)", async () => {
    const denseIndex = indexName(harness.prefix, 'wiki-dense');
    await ingestCorpus({ client: harness.es, index: denseIndex, file: DEMO_CORPUS, embed: passageEmbedder(harness.deps.gateway), embedBatch: 64 });
    await harness.es.indices.refresh({ index: denseIndex });
    const input = buildVerifyInput(harness.config, {
      claim: EIFFEL,
      method: 'tool-mad',
      index: denseIndex,
      settings: { 'tool-mad': { debaters: ['rag', 'vanilla'], queryFormulation: false, maxRounds: 1 } },
    });
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, input);
    const trace = fullVerdict(await handle.result()).trace as ToolMadTrace;
    expect(trace.ragRetrieval).toEqual({ mode: 'dense', chosenBy: 'default' });
    const dense = await retrievePassages({ es: harness.es, embedQuery: queryEmbedder(harness.deps.gateway) }, { index: denseIndex, query: EIFFEL, k: 3, mode: 'dense' });
    const bm25 = await retrievePassages({ es: harness.es }, { index: denseIndex, query: EIFFEL, k: 3, mode: 'bm25' });
    expect(dense.map((p) => p.id)).not.toEqual(bm25.map((p) => p.id));
    expect(trace.rounds[0]!.turns[0]!.evidenceIds).toEqual(dense.map((p) => p.id));
  });
});
