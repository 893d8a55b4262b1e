import { z } from 'zod';
import { estimateTokens } from './token-estimate';

const reasoningUsageSchema = z.object({ completion_tokens_details: z.object({ reasoning_tokens: z.number().int().nonnegative() }) });
const reasoningMessageSchema = z.object({ reasoning_content: z.string().optional(), reasoning: z.string().optional() });

/**
 * The reasoning tokens of an answer: usage.completion_tokens_details.reasoning_tokens when the server
 * says (OpenAI's reasoning models, Gemini); otherwise, when it returns the reasoning text
 * (vLLM's message.reasoning_content, Ollama's message.reasoning) but not its count, an estimate from
 * that text, at most the completion tokens — so gpt-oss's reasoning is counted and priced as output.
 */
export function reasoningTokensOf(usage: unknown, message: unknown, completionTokens: number): { reasoningTokens?: number } {
  const reported = reasoningUsageSchema.safeParse(usage);
  if (reported.success) return { reasoningTokens: reported.data.completion_tokens_details.reasoning_tokens };
  const parsed = reasoningMessageSchema.safeParse(message);
  const text = parsed.success ? (parsed.data.reasoning_content ?? parsed.data.reasoning ?? '') : '';
  if (text.length === 0) return {};
  return { reasoningTokens: Math.min(estimateTokens(text), completionTokens) };
}
