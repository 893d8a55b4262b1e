import { LlmContextExceededError } from './errors';
import { trimEvidence } from './evidence-trim';
import { trimObservations } from './observation-trim';
import { estimatePromptTokens } from './token-estimate';
import type { ChatMessage } from './types';

/** Tokens kept free for the answer when a request sets no max_tokens: a quarter of the window, at most this. */
export const DEFAULT_ANSWER_RESERVE_TOKENS = 1024;

export interface ContextBudget {
  model: string;
  /** The model's context window in tokens. */
  contextTokens: number;
  /** The request's max_tokens (reserved for the answer). */
  maxTokens?: number;
}

export interface FittedPrompt {
  messages: ChatMessage[];
  /** Set when the prompt had to be shortened, e.g. "evidence trimmed: 12 → 5 passages to fit 2,048-token window". */
  note?: string;
}

const numbers = new Intl.NumberFormat('en-US');

/** Tokens of the window left for the prompt once the answer's share is reserved. */
export function promptBudgetOf({ contextTokens, maxTokens }: ContextBudget): number {
  return contextTokens - (maxTokens ?? Math.min(DEFAULT_ANSWER_RESERVE_TOKENS, Math.floor(contextTokens / 4)));
}

/**
 * `messages` as they fit the model's window (estimated tokens, token-estimate.ts): unchanged
 * when they fit, else with evidence trimmed — retrieved passages first (evidence-trim.ts), then
 * the oldest tool observations of a ReAct history (observation-trim.ts) — and a note saying so.
 * Throws LlmContextExceededError, naming the window, when even that leaves the prompt too long.
 */
export function fitToContext(messages: readonly ChatMessage[], budget: ContextBudget): FittedPrompt {
  const available = promptBudgetOf(budget);
  const needed = estimatePromptTokens(messages);
  if (needed <= available) return { messages: [...messages] };
  const trim = trimEvidence(messages, needed - available);
  const afterPassages = estimatePromptTokens(trim.messages);
  const observations = afterPassages > available ? trimObservations(trim.messages, afterPassages - available) : { messages: trim.messages, shortened: 0 };
  const trimmedTokens = estimatePromptTokens(observations.messages);
  const trimmedSomething = trim.passagesBefore > 0 || observations.shortened > 0;
  if (trimmedTokens > available) throw tooLong(budget, trimmedSomething ? trimmedTokens : needed, trimmedSomething);
  const parts = [
    ...(trim.passagesBefore > 0 ? [`${trim.passagesBefore} → ${trim.passagesAfter} passages${trim.truncated > 0 ? `, ${trim.truncated} truncated` : ''}`] : []),
    ...(observations.shortened > 0 ? [`${observations.shortened} tool observation${observations.shortened === 1 ? '' : 's'} shortened`] : []),
  ];
  const note = `evidence trimmed: ${parts.join('; ')} to fit ${numbers.format(budget.contextTokens)}-token window`;
  return { messages: observations.messages, note };
}

function tooLong({ model, contextTokens, maxTokens }: ContextBudget, promptTokens: number, withoutEvidence: boolean): LlmContextExceededError {
  const answer = contextTokens - promptBudgetOf({ model, contextTokens, maxTokens });
  const evidence = withoutEvidence ? ' even without evidence' : '';
  return new LlmContextExceededError(
    `the prompt does not fit ${model}'s ${numbers.format(contextTokens)}-token context window${evidence}: ~${numbers.format(promptTokens)} prompt tokens (estimated) + ${numbers.format(answer)} for the answer (${maxTokens !== undefined ? 'max_tokens' : 'reserved'}); set VERITY_LLM_CONTEXT_TOKENS if the window is larger`,
    model,
    contextTokens,
  );
}
