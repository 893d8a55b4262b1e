import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunReport, renderMarkdown, type RunReport } from '../../src/report';
import { buildSweepInput, InvalidRunConfigError, startSweep } from '../../src/client/start-sweep';
import { indexName } from '../../src/es/indices';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { runConfigSchema } from '../../src/runs/run-manifest';
import type { DocumentVerdict } from '../../src/shared/check/document';
import type { SweepInput, SweepProgress } from '../../src/shared/sweep';
import type { Verdict } from '../../src/shared/verify';
import { formatProgress } from '../../src/cli/sweep-progress';
import { uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { expectTaskQueueReplays } from '../support/workflow-history';

/** Whole answers in FELM's format (the dataset name picks its label scheme): labelled per answer, false when some claim is false. */
const ANSWERS = [
  { id: 'answer-1', claim: 'The Eiffel Tower is a wrought-iron lattice tower in Paris. It was completed in 1889.', label: true, label_norm: 'SUPPORTED' },
  { id: 'answer-2', claim: 'Marie Curie was born in Warsaw in 1867. I think she was the greatest scientist.', label: true, label_norm: 'SUPPORTED' },
  { id: 'answer-3', claim: 'Mount Everest is the highest mountain on Earth. Who climbed it first? The Amazon River carries more water than any other river.', label: false, label_norm: 'REFUTED' },
];

/**
 * `check` in a sweep config against real Temporal and Elasticsearch with the simulator: each item
 * of a text dataset is checked as a document (a child checkDocumentWorkflow), its claims verified
 * in the sweep's run, and the report scores the documents' labels against the items' gold. The
 * sweep continues as new while documents run (awaitDocumentCheck picks them up), and running it
 * again reuses every stored document without a request to the model.
 */
describe('a sweep with check (text datasets)', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-sweep-check-'));
  const runId = uniqueName('check-sweep');
  const file = path.join(tmp, 'answers.jsonl');
  let input: SweepInput;
  let first: SweepProgress;
  let again: SweepProgress;
  let documents: DocumentVerdict[];
  let claimVerdicts: Verdict[];
  let report: RunReport;
  let requestsAfterFirst: number;

  const config = (overrides: Record<string, unknown> = {}) =>
    runConfigSchema.parse({
      run: runId,
      datasets: [{ name: 'felm_wk', file, format: 'verity' }],
      methods: ['rag'],
      models: ['gpt-4o-mini'],
      concurrency: 2,
      check: { window: 2 },
      ...overrides,
    });

  beforeAll(async () => {
    fs.writeFileSync(file, ANSWERS.map((answer) => JSON.stringify({ dataset: 'felm_wk', split: 'test', ...answer })).join('\n') + '\n');
    harness = await startWorkerHarness('check-sweep', { worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
    const run = config();
    // A small history limit makes the sweep continue as new while its documents are still running.
    input = { ...buildSweepInput(harness.config, run, tmp), maxHistoryEvents: 12 };
    await harness.deps.runs.save(await buildRunManifest(harness.config, run, input));
    first = await (await startSweep(harness.client, harness.config.temporal.taskQueue, input)).handle.result();
    requestsAfterFirst = harness.simulator.requests().length;
    again = await (await startSweep(harness.client, harness.config.temporal.taskQueue, input, { rerunFinished: true })).handle.result();

    for (const index of ['documents', 'verdicts']) await harness.es.indices.refresh({ index: indexName(harness.prefix, index) });
    documents = (await harness.es.search<DocumentVerdict>({ index: indexName(harness.prefix, 'documents'), size: 100, query: { term: { runId } } })).hits.hits.map((hit) => hit._source!);
    claimVerdicts = (await harness.es.search<Verdict>({ index: indexName(harness.prefix, 'verdicts'), size: 100, query: { term: { runId } } })).hits.hits.map((hit) => hit._source!);
    report = await loadRunReport(harness.es, harness.prefix, runId, { bootstrap: { resamples: 50 } });
  }, 900_000);

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('checks every item as a document of the run, across a continue-as-new', () => {
    expect(first).toMatchObject({ status: 'completed', total: ANSWERS.length, done: ANSWERS.length, failed: 0 });
    expect(first.continuedAsNew).toBeGreaterThan(0);
    expect(first.items).toBe('documents');
    expect(formatProgress(first)).toMatch(new RegExp(`${ANSWERS.length}/${ANSWERS.length} documents checked: ${ANSWERS.length} document verdicts`));
    expect(documents.map((d) => d.itemId).sort()).toEqual(ANSWERS.map((a) => a.id));
    for (const document of documents) {
      const answer = ANSWERS.find((a) => a.id === document.itemId)!;
      expect(document).toMatchObject({ runId, dataset: 'felm_wk', method: 'rag', model: 'gpt-4o-mini', source: `felm_wk/${answer.id}` });
      expect(document.claims.length).toBeGreaterThan(0);
      expect(document.usage!.tokens).toBeGreaterThan(0);
    }
    // The opinion and the question are kept with their reason, not verified.
    expect(documents.find((d) => d.itemId === 'answer-2')!.claims.some((c) => c.skipped === 'opinion')).toBe(true);
    expect(documents.find((d) => d.itemId === 'answer-3')!.claims.some((c) => c.skipped === 'question')).toBe(true);
  });

  it("verifies the documents' claims in the sweep's run, where its explorer and report find them", () => {
    const verifiedClaims = documents.flatMap((d) => d.claims.filter((c) => !c.skipped));
    expect(verifiedClaims.length).toBeGreaterThan(0);
    for (const claim of verifiedClaims) expect(claim.workflowId).toMatch(new RegExp(`^verify/${runId}/`));
    expect(claimVerdicts.length).toBe(new Set(verifiedClaims.map((c) => c.workflowId)).size);
    for (const verdict of claimVerdicts) expect(verdict).toMatchObject({ runId, dataset: 'felm_wk' });
  });

  it('reuses every stored document when the sweep runs again: no request reaches the model', () => {
    expect(again).toMatchObject({ status: 'completed', total: ANSWERS.length, done: ANSWERS.length, reused: ANSWERS.length, failed: 0 });
    expect(harness.simulator.requests().length).toBe(requestsAfterFirst);
  });

  it("scores each document's label against its item's gold and reports the documents' precision and F1@K", () => {
    expect(report.groups).toHaveLength(1);
    const [group] = report.groups;
    expect(group!.counts).toMatchObject({ claims: ANSWERS.length, verdicts: ANSWERS.length, scored: ANSWERS.length });
    expect(report.claims.map((row) => row.claimId).sort()).toEqual(ANSWERS.map((a) => a.id));
    for (const row of report.claims) expect(row.predicted).toMatch(/^(SUPPORTED|REFUTED|NEI)$/);
    expect(report.documents).toHaveLength(1);
    const [scores] = report.documents!;
    expect(scores).toMatchObject({ documents: ANSWERS.length, k: 64 });
    expect(scores!.supported + scores!.notSupported).toBe(claimVerdicts.length);
    expect(report.warnings.join('\n')).toMatch(/scored per document/);
    expect(report.warnings.join('\n')).not.toMatch(/no gold label/);
    expect(renderMarkdown(report)).toMatch(/## Documents[\s\S]*mean precision/);
  });

  it('refuses what a document check cannot keep: repeats, and MERMAID with evidence memory', () => {
    expect(() => buildSweepInput(harness.config, config({ repeats: 2 }), tmp)).toThrow(InvalidRunConfigError);
    expect(() => buildSweepInput(harness.config, config({ methods: ['mermaid'], ordered: true }), tmp)).toThrow(/memory/);
    expect(() => runConfigSchema.parse({ ...config(), check: { window: 0 } })).toThrow();
  });

  it('every workflow this file ran replays with the current workflow code', async () => {
    expect(await expectTaskQueueReplays(harness.client, harness.config.temporal.taskQueue)).toBeGreaterThan(0);
  });
});
