import { z } from 'zod';

/** A chat completion as a batch's output line carries it (what the batch lane reads of it). */
export const batchCompletionSchema = z.object({
  model: z.string(),
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }), finish_reason: z.string().nullable().optional() })),
  usage: z.object({ prompt_tokens: z.number().nonnegative(), completion_tokens: z.number().nonnegative() }).passthrough().nullish(),
});
export type BatchCompletion = z.infer<typeof batchCompletionSchema>;

/** One line of a batch's output or error file. */
export const batchOutputLineSchema = z.object({
  custom_id: z.string(),
  response: z.object({ status_code: z.number().int(), body: z.unknown() }).nullable(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});
export type BatchOutputLine = z.infer<typeof batchOutputLineSchema>;

/** One request line of a batch input file. */
export function batchInputLine(customId: string, body: unknown): string {
  return JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body });
}

/** What one request of a batch came back as. */
export type BatchLineOutcome =
  | { kind: 'answer'; completion: BatchCompletion }
  /** The server refused the request itself (4xx other than 429): asking again gets the same answer. */
  | { kind: 'rejected'; message: string }
  /** No answer (expired, 429, 5xx, timeout): asked again in another batch. */
  | { kind: 'retry'; message: string };

/** The outcome of each custom_id in an output or error file's text; lines that break the format are skipped (their requests are asked again). */
export function readOutputLines(text: string): Map<string, BatchLineOutcome> {
  const outcomes = new Map<string, BatchLineOutcome>();
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const line = batchOutputLineSchema.safeParse(safeJson(raw));
    if (!line.success) continue;
    outcomes.set(line.data.custom_id, outcomeOf(line.data));
  }
  return outcomes;
}

function outcomeOf(line: BatchOutputLine): BatchLineOutcome {
  const { response, error } = line;
  if (!response) return { kind: 'retry', message: `${error?.code ?? 'error'}: ${error?.message ?? 'no response'}` };
  const message = errorMessageOf(response.body) ?? `HTTP ${response.status_code}`;
  if (response.status_code === 200) {
    const completion = batchCompletionSchema.safeParse(response.body);
    return completion.success ? { kind: 'answer', completion: completion.data } : { kind: 'retry', message: 'the answer is not a chat completion' };
  }
  if (response.status_code === 429 || response.status_code >= 500) return { kind: 'retry', message };
  return { kind: 'rejected', message: `HTTP ${response.status_code}: ${message}` };
}

function errorMessageOf(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
