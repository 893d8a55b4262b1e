import type { Client } from '@elastic/elasticsearch';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../src/project-root';
import { searchPassages } from '../../../src/retrieval/bm25';

const DEV = path.join(projectRoot(), '..', 'shared', 'data', 'dev');
export const LATENCY_K = 20;

/** Claim texts of HoVer and FEVER dev, alternating, as retrieval queries. */
export function readClaimQueries(limit: number): string[] {
  const claimsOf = (file: string) =>
    fs
      .readFileSync(path.join(DEV, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { claim: string }).claim);
  const hover = claimsOf('hover.jsonl');
  const fever = claimsOf('fever.jsonl');
  const out: string[] = [];
  for (let i = 0; out.length < limit && (i < hover.length || i < fever.length); i += 1) {
    if (hover[i]) out.push(hover[i]!);
    if (fever[i] && out.length < limit) out.push(fever[i]!);
  }
  return out;
}

/** Milliseconds of each query, run one after another through the retrieval code rag.search uses. */
export async function timeQueries(es: Client, index: string, queries: readonly string[]): Promise<number[]> {
  const times: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await searchPassages(es, index, query, LATENCY_K);
    times.push(performance.now() - started);
  }
  return times;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function latencySummary(times: readonly number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return { queries: sorted.length, p50Ms: round(percentile(sorted, 50)), p90Ms: round(percentile(sorted, 90)), p99Ms: round(percentile(sorted, 99)), maxMs: round(sorted[sorted.length - 1] ?? NaN) };
}
