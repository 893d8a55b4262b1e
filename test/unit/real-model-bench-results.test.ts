import { describe, expect, it } from 'vitest';
import { mergeResults, type MethodResult, type RealModelResults } from '../../eval/bench/real-model/results-file';
import { renderRealModelTable, type RealModelRow } from '../../eval/bench/real-model/table';
import { calibratedThreshold } from '../../eval/bench/real-model/tool-mad-pilot';

const ci = (estimate: number) => ({ estimate, lower: estimate - 0.1, upper: estimate + 0.1, confidence: 0.95, resamples: 1000 });
const row = (method: string, dataset: string, accuracy: number): RealModelRow => ({
  dataset, method, claims: 10, scheme: 'binary', accuracy: ci(accuracy), macroF1: ci(accuracy), failed: 0, invalidLabels: 0, invalidAnswers: 1,
  llmCalls: 20, toolCallsPerClaim: 1, claimsWithToolCalls: 9, tokensPerClaim: 900, secondsPerClaim: 12,
});
const base = { model: { name: 'm', description: 'M', quantisation: 'Q4', sha256: 'abc', slots: 1, contextTokens: 4096 }, seed: 7, machine: '2 CPU cores' };
const sample = { tokens: 1000, seconds: 10, tokensPerSecond: 100, requests: 5 };
const result = (method: string, accuracy: number, paid = true): MethodResult => ({
  run: { method, command: `bench --methods ${method}`, generatedAt: 't', runId: `r-${method}`, datasets: ['fever'], claimsPerDataset: 10, settings: {} },
  rows: [row(method, 'fever', accuracy)],
  ...(paid ? { throughput: { method, sweep: sample, standalone: { ...sample, tokensPerSecond: 110 }, ratio: 100 / 110 } } : {}),
});
const ORDER = ['rag', 'mermaid', 'fire'];

describe('bench:real-model results, merged method by method', () => {
  it('keeps the methods a run did not measure and replaces the ones it did, in method order', () => {
    const first = mergeResults(undefined, base, [result('fire', 0.5), result('rag', 0.6)], ORDER);
    expect(first.rows.map((r) => r.method)).toEqual(['rag', 'fire']);
    const second = mergeResults(first, base, [result('mermaid', 0.7), result('fire', 0.55)], ORDER);
    expect(second.rows.map((r) => [r.method, r.accuracy.estimate])).toEqual([['rag', 0.6], ['mermaid', 0.7], ['fire', 0.55]]);
    expect(second.runs.map((r) => r.method)).toEqual(['rag', 'mermaid', 'fire']);
    expect(second.throughput.map((t) => t.method)).toEqual(['rag', 'mermaid', 'fire']);
  });

  it('keeps the earlier throughput of a method whose re-run paid for nothing', () => {
    const first = mergeResults(undefined, base, [result('rag', 0.6)], ORDER);
    const again = mergeResults(first, base, [result('rag', 0.6, false)], ORDER);
    expect(again.throughput).toEqual(first.throughput);
  });

  it('starts afresh for another model file or seed', () => {
    const first = mergeResults(undefined, base, [result('rag', 0.6)], ORDER);
    const other: RealModelResults = mergeResults(first, { ...base, model: { ...base.model, sha256: 'def' } }, [result('fire', 0.5)], ORDER);
    expect(other.rows.map((r) => r.method)).toEqual(['fire']);
  });

  it('renders the table with one throughput line per method', () => {
    const merged = mergeResults(undefined, base, [result('rag', 0.6)], ORDER);
    const table = renderRealModelTable('M Q4', merged.rows, merged.throughput);
    expect(table).toContain('| fever | rag | 10 | 0.600 [0.50, 0.70] |');
    expect(table).toContain('| rag | 100.0 (1000, 5, 10) | 110.0 (5 requests) | 0.91 |');
  });
});

describe('Tool-MAD pilot calibration', () => {
  it('puts the threshold at the p25 of the pilot turns, rounded down to two decimals', () => {
    const scores = [0.5, 0.61, 0.7, 0.72, 0.8, 0.81, 0.9, 0.95];
    const calibration = calibratedThreshold({ claims: 2, scores }, 'emb', 'pilot-1', 'npm run bench:real-model');
    expect(calibration.threshold).toBe(0.61);
    expect(calibration.turns).toBe(8);
    expect(calibration.source).toMatch(/^measured: `npm run bench:real-model` — Tool-MAD pilot pilot-1 with the gate open: p25 of 8 debater turns on 2 claims 0\.610/);
  });

  it('refuses a pilot without relevance scores', () => {
    expect(() => calibratedThreshold({ claims: 2, scores: [] }, 'emb', 'pilot-1', 'cmd')).toThrow(/no debater turn has an answer-relevance score/);
  });
});
