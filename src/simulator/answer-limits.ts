import type { SimResponse } from './chat-completions';
import type { ChatSettings } from './profiles';

/** `text` cut after its first `maxTokens` whitespace tokens (the simulator's tokens, text.ts), and whether it was cut. */
export function cutToTokens(text: string, maxTokens: number): { text: string; cut: boolean } {
  const tokens = [...text.matchAll(/\S+/g)];
  if (tokens.length <= maxTokens) return { text, cut: false };
  if (maxTokens <= 0) return { text: '', cut: true };
  const last = tokens[maxTokens - 1]!;
  return { text: text.slice(0, last.index + last[0].length), cut: true };
}

/** A greedy small model's loop: the answer's start, then one sentence again and again until the limit. */
export function loopingAnswer(sentence: string, limitTokens: number): string {
  const parts = ['{"rationale": "'];
  const perSentence = Math.max(1, sentence.split(/\s+/).filter(Boolean).length);
  for (let tokens = 1; tokens <= limitTokens; tokens += perSentence) parts.push(sentence, ' ');
  return cutToTokens(parts.join(''), limitTokens).text;
}

/** The max_tokens of a request (OpenAI's newer `max_completion_tokens` too), if any. */
export function maxTokensOf(body: { max_tokens?: unknown; max_completion_tokens?: unknown }): number | undefined {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The server's answer to a prompt longer than its window: OpenAI (and llama-cpp-python) count
 * max_tokens in, 400 `context_length_exceeded`; llama.cpp counts the prompt only and answers
 * `exceed_context_size_error` with n_prompt_tokens and n_ctx.
 */
export function contextOverflow(settings: ChatSettings, promptTokens: number, maxTokens: number | undefined): SimResponse | undefined {
  const n = settings.contextTokens;
  if (settings.profile === 'llama.cpp') {
    if (promptTokens <= n) return undefined;
    const error = { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: promptTokens, n_ctx: n };
    return { status: 400, body: { error } };
  }
  const countsMaxTokens = settings.profile !== 'llama-cpp-python';
  const requested = promptTokens + (countsMaxTokens ? (maxTokens ?? 0) : 0);
  if (requested <= n) return undefined;
  const detail =
    countsMaxTokens && maxTokens !== undefined
      ? `However, you requested ${requested} tokens (${promptTokens} in the messages, ${maxTokens} in the completion).`
      : `However, your messages resulted in ${promptTokens} tokens.`;
  const message = `This model's maximum context length is ${n} tokens. ${detail} Please reduce the length of the messages or completion.`;
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } };
}
