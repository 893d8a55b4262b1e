/**
 * The model server's own throughput on the requests a benchmark's sweeps sent: the paid answers
 * recorded in the LLM request cache are sent again straight to the server, as many at once as it
 * has slots, with the same messages and the same response_format (the task's JSON schema, so the
 * server does the same constrained decoding), generating at most as many tokens as they did in the
 * sweep, each prompt processed afresh. Their tokens per second is what the server does without
 * verity around it.
 */
import type { Client as EsClient } from '@elastic/elasticsearch';
import type { CachedLlmAnswer } from '../../../src/llm/cache';
import '../../../src/methods/tasks';
import { jsonSchemaOf } from '../../../src/llm/structured-output';
import { getTask, registeredTaskIds } from '../../../src/llm/task-registry';
import { searchAll } from '../../../src/runs/search-all';
import { pool } from '../support/pool';

export interface ThroughputSample {
  /** Prompt plus generated tokens the server processed. */
  tokens: number;
  seconds: number;
  tokensPerSecond: number;
  requests?: number;
}

type RecordedAnswer = Pick<CachedLlmAnswer, 'messages' | 'usage' | 'createdAt'> & Partial<Pick<CachedLlmAnswer, 'promptVersion' | 'schemaName'>>;

/** Every answer recorded in `cacheIndex` from `since` (to `until`; ISO times), oldest first. */
export async function recordedAnswers(es: EsClient, cacheIndex: string, since: string, until?: string): Promise<RecordedAnswer[]> {
  await es.indices.refresh({ index: cacheIndex });
  const answers = (await searchAll(es, cacheIndex, { range: { createdAt: { gte: since, ...(until ? { lte: until } : {}) } } })) as RecordedAnswer[];
  return answers.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * When a run's verifications ran: its first verdict's start to its last verdict's end. The window
 * of a sweep measured by an earlier invocation (all its answers are reused now).
 */
export async function verdictWindow(es: EsClient, verdictsIndex: string, runId: string): Promise<{ since: string; until: string; seconds: number } | undefined> {
  await es.indices.refresh({ index: verdictsIndex });
  const verdicts = (await searchAll(es, verdictsIndex, { term: { runId } })) as { startedAt?: string; finishedAt?: string }[];
  const starts = verdicts.flatMap((v) => (v.startedAt ? [v.startedAt] : [])).sort();
  const ends = verdicts.flatMap((v) => (v.finishedAt ? [v.finishedAt] : [])).sort();
  if (starts.length === 0 || ends.length === 0) return undefined;
  const since = starts[0]!;
  const until = ends.at(-1)!;
  return { since, until, seconds: (Date.parse(until) - Date.parse(since)) / 1000 };
}

/** Tokens the server processed for these answers (what the sweeps made it do). */
export function tokensOf(answers: readonly RecordedAnswer[]): number {
  return answers.reduce((sum, answer) => sum + answer.usage.promptTokens + answer.usage.completionTokens, 0);
}

/** Up to `count` answers spread evenly over the whole run, so every method's requests are represented. */
export function spreadSample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

export interface StandaloneOptions {
  answers: readonly RecordedAnswer[];
  baseUrl: string;
  model: string;
  concurrency: number;
}

const completionUsage = (body: unknown): { prompt: number; completion: number } => {
  const usage = (body as { usage?: { prompt_tokens?: number; completion_tokens?: number } }).usage ?? {};
  return { prompt: usage.prompt_tokens ?? 0, completion: usage.completion_tokens ?? 0 };
};

export async function measureStandaloneThroughput(options: StandaloneOptions): Promise<ThroughputSample> {
  const { answers, baseUrl, model, concurrency } = options;
  let tokens = 0;
  const started = Date.now();
  await pool(answers, concurrency, async (answer) => {
    const response = await fetch(`${baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        messages: answer.messages ?? [],
        max_tokens: Math.max(answer.usage.completionTokens, 1),
        temperature: 0,
        // llama.cpp keeps earlier prompts in RAM (--cache-ram): a replay would find the sweep's own
        // prompts there and skip their processing, which is not what the sweep got.
        cache_prompt: false,
        ...responseFormatOf(answer),
      }),
    });
    if (!response.ok) throw new Error(`standalone request: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
    const usage = completionUsage(await response.json());
    tokens += usage.prompt + usage.completion;
  });
  const seconds = (Date.now() - started) / 1000;
  return { tokens, seconds, tokensPerSecond: seconds > 0 ? tokens / seconds : 0, requests: answers.length };
}

/** The json_schema response_format the gateway sent for the answer's task (`<task id>@<version>`), if the task is known. */
function responseFormatOf(answer: RecordedAnswer): { response_format?: unknown } {
  const taskId = answer.promptVersion?.split('@')[0];
  if (!taskId || !registeredTaskIds().includes(taskId)) return {};
  const task = getTask(taskId);
  return { response_format: { type: 'json_schema', json_schema: { name: answer.schemaName ?? task.schemaName, schema: jsonSchemaOf(task.output), strict: true } } };
}
