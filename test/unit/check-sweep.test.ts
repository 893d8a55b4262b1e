import { describe, expect, it } from 'vitest';
import { compareRunConfigs } from '../../src/runs/run-growth';
import { documentAsRunVerdict, runDocumentSchema } from '../../src/runs/run-documents';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { documentLabel } from '../../src/shared/check/document-label';
import { sweepDocumentCheck } from '../../src/shared/check/sweep-document';
import type { RunClaim, SweepInput } from '../../src/shared/sweep';

const config = (overrides: Record<string, unknown> = {}) =>
  runConfigSchema.parse({ run: 'r', datasets: [{ name: 'felm_wk', file: '/d/felm.jsonl', sha256: 'a' }], methods: ['rag'], models: ['m'], check: { window: 2 }, ...overrides });

const sweep = (runId: string): SweepInput => ({
  schemaVersion: 1,
  runId,
  datasets: [{ name: 'felm_wk', file: '/d/felm.jsonl', format: 'verity' }],
  seed: 7,
  variants: [{ method: 'rag', model: 'm' }],
  rag: { topK: 5, index: 'p-wiki' },
  concurrency: 2,
  ordered: false,
  budget: {},
  identity: { configHash: 'c', promptsHash: 'p', stamp: { fingerprint: 'f', label: 'l' }, placement: { namespace: 'default', taskQueue: 'q', indexPrefix: 'p' } } as unknown as SweepInput['identity'],
});
const item: RunClaim = { runId: 'r', ordinal: 0, claimId: 'felm_wk-3', dataset: 'felm_wk', datasetPosition: 0, claim: 'Paris is in France. It is big.', label: true, labelNorm: 'SUPPORTED' } as RunClaim;
const check = { checkPrompts: { 'check.extract': '1' }, window: 2 };

describe('documentLabel (a whole text from its claims)', () => {
  it('is REFUTED when any claim is refuted, else SUPPORTED when one is supported, else NEI', () => {
    expect(documentLabel([{ label: 'SUPPORTED' }, { label: 'REFUTED' }, { label: 'NEI' }])).toBe('REFUTED');
    expect(documentLabel([{ label: 'SUPPORTED' }, { label: 'NEI' }, {}])).toBe('SUPPORTED');
    expect(documentLabel([{ label: 'NEI' }, {}])).toBe('NEI');
    expect(documentLabel([])).toBe('NEI');
  });
});

describe('sweepDocumentCheck (a sweep item as a document)', () => {
  it("checks the item's text with the run, item and dataset, and a stable id of its own per run", () => {
    const a = sweepDocumentCheck(sweep('r'), check, item, { method: 'rag', model: 'm' });
    expect(a.checkInput).toMatchObject({ text: item.claim, run: { runId: 'r', itemId: 'felm_wk-3', dataset: 'felm_wk' }, window: 2, source: 'felm_wk/felm_wk-3' });
    expect(a.workflowId).toBe(`check/${a.documentId}`);
    expect(sweepDocumentCheck(sweep('r'), check, item, { method: 'rag', model: 'm' }).documentId).toBe(a.documentId);
    expect(sweepDocumentCheck(sweep('other'), check, { ...item, runId: 'other' }, { method: 'rag', model: 'm' }).documentId).not.toBe(a.documentId);
    expect(sweepDocumentCheck(sweep('r'), check, item, { method: 'rag', model: 'n' }).documentId).not.toBe(a.documentId);
  });
});

describe('documentAsRunVerdict (the report scores documents)', () => {
  it('labels the document by its claims, keyed by its item, with its whole spend', () => {
    const stored = runDocumentSchema.parse({
      documentId: 'd1', runId: 'r', itemId: 'felm_wk-3', dataset: 'felm_wk', method: 'rag', model: 'm', text: 'Paris…',
      claims: [{ label: 'SUPPORTED' }, { label: 'REFUTED' }, { skipped: 'opinion' }],
      scores: { supported: 1, notSupported: 1, nei: 0, failed: 0, skipped: 1, precision: 0.5, k: 64, recallAtK: 1 / 64, f1AtK: 0.03 },
      stepUsage: { llmCalls: 6, cachedLlmCalls: 1, invalidAnswers: 0, promptTokens: 90, completionTokens: 10, totalTokens: 100, costUsd: 0.001 },
      usage: { tokens: 400, costUsd: 0.004 },
    });
    expect(documentAsRunVerdict(stored)).toMatchObject({ workflowId: 'check/d1', claimId: 'felm_wk-3', dataset: 'felm_wk', label: 'REFUTED', usage: { totalTokens: 400, costUsd: 0.004, llmCalls: 6 } });
  });
});

describe('growing a run with check', () => {
  it('refuses a change of check (it decides every document)', () => {
    expect(compareRunConfigs(config(), config())).toEqual({ kind: 'same' });
    expect(compareRunConfigs(config(), config({ check: { window: 2, f1K: 10 } }))).toMatchObject({ kind: 'incompatible', change: expect.stringMatching(/^check changed/) });
    expect(compareRunConfigs(config(), config({ check: undefined }))).toMatchObject({ kind: 'incompatible' });
  });
});
