/**
 * llama.cpp's own counters (`GET /metrics`, Prometheus text): how long the server spent on prompts and
 * on generation, and how many tokens it processed. Read before and after a sweep, they say how busy
 * verity kept the server — every request counted, including answers the method rejected as invalid,
 * which the request cache (and so the tokens/s ratio) never sees.
 */
export interface ServerCounters {
  promptSeconds: number;
  predictedSeconds: number;
  promptTokens: number;
  cachedPromptTokens: number;
  predictedTokens: number;
}

export interface ServerBusy {
  /** Seconds the server spent processing prompts and generating, during the sweep. */
  busySeconds: number;
  /** busySeconds / the sweep's wall time: the share of the time verity kept the one-slot server working. */
  busyShare: number;
  promptTokens: number;
  cachedPromptTokens: number;
  predictedTokens: number;
}

const COUNTERS: Record<keyof ServerCounters, string> = {
  promptSeconds: 'llamacpp:prompt_seconds_total',
  predictedSeconds: 'llamacpp:tokens_predicted_seconds_total',
  promptTokens: 'llamacpp:prompt_tokens_total',
  cachedPromptTokens: 'llamacpp:prompt_tokens_cached_total',
  predictedTokens: 'llamacpp:tokens_predicted_total',
};

export function parseServerCounters(text: string): ServerCounters | undefined {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\s+([0-9.eE+-]+)$/.exec(line.trim());
    if (match) values.set(match[1]!, Number(match[2]));
  }
  const entries = Object.entries(COUNTERS).map(([key, name]) => [key, values.get(name)] as const);
  if (entries.some(([, value]) => value === undefined || !Number.isFinite(value))) return undefined;
  return Object.fromEntries(entries) as unknown as ServerCounters;
}

/** The server's counters, or undefined when it exposes none (another engine, or metrics off). */
export async function readServerCounters(baseUrl: string): Promise<ServerCounters | undefined> {
  try {
    const response = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(10_000) });
    return response.ok ? parseServerCounters(await response.text()) : undefined;
  } catch {
    return undefined;
  }
}

export function serverBusy(before: ServerCounters, after: ServerCounters, wallSeconds: number): ServerBusy {
  const busySeconds = after.promptSeconds - before.promptSeconds + (after.predictedSeconds - before.predictedSeconds);
  return {
    busySeconds,
    busyShare: wallSeconds > 0 ? busySeconds / wallSeconds : 0,
    promptTokens: after.promptTokens - before.promptTokens,
    cachedPromptTokens: after.cachedPromptTokens - before.cachedPromptTokens,
    predictedTokens: after.predictedTokens - before.predictedTokens,
  };
}
