import type { ChatMessage } from './types';

/**
 * Characters per token of the prompt estimate. BPE tokenizers average about 4 characters per
 * token on English prose; 3.5 over-counts it (code, numbers, ids and non-English text run closer
 * to 3), so a prompt estimated to fit is very unlikely to overflow the server's window.
 */
export const CHARS_PER_TOKEN = 3.5;
/** Tokens a chat template adds around each message (role markers, separators). */
export const TOKENS_PER_MESSAGE = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateTokens(message.content) + TOKENS_PER_MESSAGE, 0);
}
