import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRunReport, type RunReport } from '../../src/report';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { indexName } from '../../src/es/indices';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { runConfigSchema } from '../../src/runs/run-manifest';
import type { ServerProfile } from '../../src/simulator/profiles';
import { SIMULATED_UNDECIDED_ANSWER } from '../../src/methods/mermaid/simulator-responder';
import type { Verdict } from '../../src/shared/verify';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { startWorkerHarness } from '../support/worker-harness';

const CLAIMS = 6;

interface Outcome {
  report: RunReport;
  verdicts: Verdict[];
  /** The json_schema response formats the simulator received for MERMAID's answer-bearing tasks. */
  sentFormats: string[];
}

/**
 * A MERMAID sweep of the demo claims against real Temporal and Elasticsearch on one simulated server.
 * The simulator's executor answers an undecided claim in its own words ("NOT ENOUGH INFO") unless
 * constrained decoding holds it to the request's json_schema (then the negative label).
 */
async function mermaidSweep(profile: ServerProfile): Promise<Outcome> {
  const harness = await startWorkerHarness(`mermaid-vocab-${profile.replace(/\W/g, '')}`, { simulator: { profile, keepBodies: true } });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-mermaid-vocab-'));
  try {
    const runId = uniqueName('mermaid-vocab');
    const run = runConfigSchema.parse({
      run: runId,
      datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: CLAIMS }],
      methods: ['mermaid'],
      models: ['gpt-4o-mini'],
      // Without tools the simulated executor has no evidence: every claim is undecided, and answered at once.
      parameters: { mermaid: { memory: 'off', tools: false } },
      concurrency: 4,
    });
    const input = buildSweepInput(harness.config, run, tmp);
    await harness.deps.runs.save(await buildRunManifest(harness.config, run, input));
    const { handle } = await startSweep(harness.client, harness.config.temporal.taskQueue, input);
    expect(await handle.result()).toMatchObject({ status: 'completed', done: CLAIMS, failed: 0 });
    await harness.es.indices.refresh({ index: indexName(harness.prefix, 'verdicts') });
    const response = await harness.es.search<Verdict>({ index: indexName(harness.prefix, 'verdicts'), size: 100, query: { term: { runId } } });
    const report = await loadRunReport(harness.es, harness.prefix, runId, { bootstrap: { resamples: 50 } });
    const sentFormats = harness.simulator
      .arrivals()
      .flatMap((arrival) => (arrival.body ? [JSON.parse(arrival.body) as { response_format?: { type?: string; json_schema?: { name?: string } } }] : []))
      .filter((body) => body.response_format?.type === 'json_schema' && body.response_format.json_schema?.name !== 'mermaid_decomposition')
      .map((body) => JSON.stringify(body.response_format));
    return { report, verdicts: response.hits.hits.map((hit) => hit._source!), sentFormats };
  } finally {
    await harness.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const offVocabulary = (verdicts: Verdict[]) => verdicts.filter((verdict) => (verdict.trace as { answerClass?: string } | undefined)?.answerClass === 'invalid');

describe("MERMAID's answers off the label vocabulary (issue 37 §2.2)", () => {
  let constrained: Outcome;
  let unconstrained: Outcome;

  beforeAll(async () => {
    constrained = await mermaidSweep('openai');
    // llama-cpp-python refuses json_schema (HTTP 500): the gateway falls back to json_object, the schema only in the prompt.
    unconstrained = await mermaidSweep('llama-cpp-python');
  });

  it("sends the final answer as the label set's enum in the strict json_schema", () => {
    expect(constrained.sentFormats.length).toBeGreaterThan(0);
    for (const format of constrained.sentFormats) {
      expect(format).toContain('"strict":true');
      expect(format).toContain('"answer":{"type":"string","enum":["True","False"]}');
    }
  });

  it('on a server that holds the answer to the schema, every answer is a label: none off the vocabulary', () => {
    expect(constrained.verdicts).toHaveLength(CLAIMS);
    expect(constrained.verdicts.map((verdict) => verdict.methodLabel)).toEqual(Array(CLAIMS).fill('False'));
    expect(offVocabulary(constrained.verdicts)).toEqual([]);
    expect(constrained.report.groups[0]!.answers.offVocabulary).toBeUndefined();
  });

  it('on a server without strict schemas, the off-vocabulary answers are counted in the report and scored as the negative label', () => {
    const off = offVocabulary(unconstrained.verdicts);
    expect(off).toHaveLength(CLAIMS);
    for (const verdict of off) expect(verdict).toMatchObject({ label: 'REFUTED', methodLabel: SIMULATED_UNDECIDED_ANSWER });
    expect(unconstrained.report.groups[0]!.answers.offVocabulary).toBe(off.length);
    expect(unconstrained.report.claims.filter((row) => row.offVocabularyAnswer === true)).toHaveLength(off.length);
  });
});
