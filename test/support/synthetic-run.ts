import { createHash } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { loadDataset, type DatasetClaim } from '../../src/datasets';
import { ensureIndex } from '../../src/es/ensure-index';
import { RUN_CLAIMS_INDEX, RUN_FAILURES_INDEX } from '../../src/runs/run-indices';
import { indexName } from '../../src/es/indices';
import type { RunManifest } from '../../src/runs/run-manifest';
import { VERDICT_INDEX } from '../../src/verdicts/verdict-index';

/**
 * Writes a synthetic run into Elasticsearch (manifest, run claims, verdicts, failures) with
 * deterministic ids and pseudo-random but reproducible labels and usage: for report and diff tests
 * and for looking at a report before real sweeps exist. Its numbers mean nothing.
 */
export interface SyntheticRunSpec {
  runId: string;
  datasets: { name: string; file: string; sample?: number }[];
  methods: string[];
  models: string[];
  /** Chance that a verdict is correct, per model (default 0.7). */
  skill?: Record<string, number>;
  /** Every n-th verification fails instead of producing a verdict (0: none). */
  failEvery?: number;
  llmProvider?: RunManifest['llmProvider'];
  salt?: string;
}


function unit(...parts: string[]): number {
  return createHash('sha256').update(parts.join('|')).digest().readUInt32BE(0) / 2 ** 32;
}

function predictedLabel(claim: DatasetClaim, skill: number, roll: number, otherRoll: number): string {
  if (roll > 0.98) return 'UNPARSEABLE';
  if (roll < skill) return claim.labelNorm;
  const others = (['SUPPORTED', 'REFUTED', 'NEI'] as const).filter((label) => label !== claim.labelNorm);
  return others[Math.floor(otherRoll * others.length)] ?? 'NEI';
}

async function bulkIndex(client: Client, index: string, docs: { id: string; doc: object }[]): Promise<void> {
  for (let start = 0; start < docs.length; start += 500) {
    const chunk = docs.slice(start, start + 500);
    const response = await client.bulk({ operations: chunk.flatMap(({ id, doc }) => [{ index: { _index: index, _id: id } }, doc]), refresh: 'wait_for' });
    if (response.errors) throw new Error(`bulk indexing into ${index} failed`);
  }
}

function manifestOf(spec: SyntheticRunSpec, claimsByDataset: Map<string, DatasetClaim[]>): RunManifest {
  const now = '2026-01-01T00:00:00.000Z';
  return {
    schemaVersion: 1,
    runId: spec.runId,
    config: {
      run: spec.runId,
      description: 'synthetic run for report tests',
      datasets: spec.datasets.map((d) => ({ name: d.name, file: d.file, format: 'auto', sample: d.sample, claimCount: claimsByDataset.get(d.name)?.length })),
      methods: spec.methods,
      models: spec.models,
      parameters: { rag: { topK: 5 } },
      seed: 7,
      concurrency: 8,
      ordered: false,
      budget: { usd: 5 },
    },
    status: 'completed',
    gitCommit: 'synthetic',
    datasetHashes: Object.fromEntries(spec.datasets.map((d) => [d.name, `sha256-of-${d.name}`])),
    modelIds: spec.models,
    promptVersions: spec.methods.map((m) => `${m}.verdict@1`),
    llmProvider: spec.llmProvider ?? 'simulator',
    createdAt: now,
    updatedAt: now,
  };
}

export async function seedSyntheticRun(client: Client, prefix: string, spec: SyntheticRunSpec): Promise<{ verdicts: number; failures: number }> {
  const claimsByDataset = new Map<string, DatasetClaim[]>();
  for (const d of spec.datasets) claimsByDataset.set(d.name, (await loadDataset(d.file)).claims.slice(0, d.sample));
  await ensureIndex(client, indexName(prefix, 'verdicts'), VERDICT_INDEX);
  // The sweep's own mappings (keywords that the report and the explorer aggregate and sort on).
  await ensureIndex(client, indexName(prefix, 'run-claims'), RUN_CLAIMS_INDEX);
  await ensureIndex(client, indexName(prefix, 'run-failures'), RUN_FAILURES_INDEX);
  await client.index({ index: indexName(prefix, 'runs'), id: spec.runId, document: manifestOf(spec, claimsByDataset), refresh: 'wait_for' });
  const verdicts: { id: string; doc: object }[] = [];
  const failures: { id: string; doc: object }[] = [];
  const runClaims: { id: string; doc: object }[] = [];
  let ordinal = 0;
  for (const [dataset, claims] of claimsByDataset) {
    for (const claim of claims) {
      runClaims.push({ id: `${spec.runId}/${ordinal}`, doc: { runId: spec.runId, ordinal, claimId: claim.id, dataset, datasetPosition: 0, claim: claim.claim, labelNorm: claim.labelNorm } });
      ordinal += 1;
      for (const method of spec.methods) {
        for (const model of spec.models) {
          const workflowId = `verify/${spec.runId}/${claim.id}/${method}/${encodeURIComponent(model)}`;
          const roll = (label: string): number => unit(spec.salt ?? '', workflowId, label);
          if (spec.failEvery && verdicts.length % spec.failEvery === spec.failEvery - 1 && roll('fail') < 0.5) {
            failures.push({ id: workflowId, doc: { runId: spec.runId, workflowId, ordinal, claimId: claim.id, dataset, method, model, reason: 'LlmOutputInvalid: no valid verdict after 3 attempts', type: 'LlmOutputInvalid', failedAt: '2026-01-01T00:05:00.000Z' } });
            continue;
          }
          const llmCalls = 1 + Math.floor(roll('calls') * 3);
          const promptTokens = 600 + Math.floor(roll('tokens') * 900);
          const completionTokens = 40 + Math.floor(roll('completion') * 120);
          const price = model.includes('mini') ? 0.15e-6 : 2.5e-6;
          verdicts.push({
            id: workflowId,
            doc: {
              schemaVersion: 1, workflowId, runId: spec.runId, claimId: claim.id, dataset, method, model, claim: claim.claim,
              label: predictedLabel(claim, spec.skill?.[model] ?? 0.7, roll('correct'), roll('other')),
              rationale: 'synthetic', citedPassageIds: [], evidence: [], temperature: 0, seed: 7, promptVersion: `${method}.verdict@1`,
              usage: { llmCalls, cachedLlmCalls: roll('cached') < 0.2 ? 1 : 0, toolCalls: Math.floor(roll('tools') * 4), promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, costUsd: llmCalls * (promptTokens + 4 * completionTokens) * price },
              startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', durationMs: Math.round(300 + 4000 * roll('latency') ** 3),
            },
          });
        }
      }
    }
  }
  await bulkIndex(client, indexName(prefix, 'run-claims'), runClaims);
  await bulkIndex(client, indexName(prefix, 'verdicts'), verdicts);
  if (failures.length > 0) await bulkIndex(client, indexName(prefix, 'run-failures'), failures);
  return { verdicts: verdicts.length, failures: failures.length };
}
