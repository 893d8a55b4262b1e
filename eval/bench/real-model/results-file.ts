/**
 * bench:real-model's results file grows method by method: a run of some methods replaces their
 * rows and throughput and keeps the others', so the whole table can be measured over several
 * invocations (each method's sweep resumes without paying twice) and still be one file.
 */
import fs from 'node:fs';
import type { ServerBusy } from './server-metrics';
import type { ThroughputSample } from './standalone-throughput';
import type { RealModelRow } from './table';

export interface MethodThroughput {
  method: string;
  sweep: ThroughputSample;
  standalone: ThroughputSample;
  /** sweep / standalone tokens per second; null when nothing was paid (every answer reused). */
  ratio: number | null;
  /** The server's own counters over the sweep (llama.cpp /metrics): how busy verity kept it, invalid answers included. */
  server?: ServerBusy;
}

/** How one method was run: the command, its datasets and the settings that differ from its defaults. */
export interface MethodRun {
  method: string;
  command: string;
  generatedAt: string;
  runId: string;
  datasets: string[];
  claimsPerDataset: number;
  settings: Record<string, unknown>;
  /** The temperature its LLM requests were sent with (the verdicts' recorded sampling); absent in runs measured before. */
  temperature?: string;
  /** Settings measured before the sweep (Tool-MAD's relevance threshold), with where they came from. */
  calibration?: Record<string, unknown>;
}

export interface RealModelResults {
  model: { name: string; description: string; quantisation: string; sha256: string; slots: number; contextTokens: number };
  seed: number;
  machine: string;
  runs: MethodRun[];
  rows: RealModelRow[];
  throughput: MethodThroughput[];
}

export interface MethodResult {
  run: MethodRun;
  rows: RealModelRow[];
  /** Absent when the sweep paid for nothing (a resumed run): the earlier measurement stays. */
  throughput?: MethodThroughput;
}

/** `previous` (same model and seed, else ignored) with `results`' methods replaced, in `methodOrder`. */
export function mergeResults(previous: RealModelResults | undefined, base: Omit<RealModelResults, 'runs' | 'rows' | 'throughput'>, results: readonly MethodResult[], methodOrder: readonly string[]): RealModelResults {
  const compatible = previous && previous.model.sha256 === base.model.sha256 && previous.seed === base.seed ? previous : undefined;
  const replaced = new Set(results.map((result) => result.run.method));
  const keep = <T extends { method: string }>(items: readonly T[] | undefined) => (items ?? []).filter((item) => !replaced.has(item.method));
  const rank = (method: string) => (methodOrder.includes(method) ? methodOrder.indexOf(method) : methodOrder.length);
  const byMethod = <T extends { method: string }>(items: T[]) => items.sort((a, b) => rank(a.method) - rank(b.method));
  const keptThroughput = (compatible?.throughput ?? []).filter((entry) => !results.some((result) => result.run.method === entry.method && result.throughput));
  return {
    ...base,
    runs: byMethod([...keep(compatible?.runs), ...results.map((result) => result.run)]),
    rows: byMethod([...keep(compatible?.rows), ...results.flatMap((result) => result.rows)]),
    throughput: byMethod([...keptThroughput, ...results.flatMap((result) => (result.throughput ? [result.throughput] : []))]),
  };
}

export function readResults(file: string): RealModelResults | undefined {
  if (!fs.existsSync(file)) return undefined;
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RealModelResults>;
  return Array.isArray(parsed.runs) && Array.isArray(parsed.rows) && Array.isArray(parsed.throughput) ? (parsed as RealModelResults) : undefined;
}
