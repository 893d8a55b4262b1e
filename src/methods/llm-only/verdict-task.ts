import { z } from 'zod';
import { renderClaim } from '../../llm/prompt-conventions';
import { defineTask } from '../../llm/task-registry';
import { VERDICT_LABELS } from '../../shared/constants';

export const llmOnlyVerdictVariables = z.object({ claim: z.string().min(1) });

export const llmOnlyVerdictOutput = z.object({
  label: z.enum(VERDICT_LABELS),
  rationale: z.string(),
});

/** The same fields, the rationale first: constrained decoding reasons before it writes the label. */
export const llmOnlyReasonedVerdictOutput = z.object({
  rationale: z.string(),
  label: z.enum(VERDICT_LABELS),
});

export type LlmOnlyVerdictOutput = z.infer<typeof llmOnlyVerdictOutput>;

const SYSTEM_PROMPT = [
  'You are a careful fact-checker. Decide whether the claim is true using only what you know; no evidence is given.',
  'Answer SUPPORTED when you are confident it is true, REFUTED when you are confident it is false, and NEI when',
  'you do not know enough to decide.',
].join(' ');

/** Both orders' messages: the system prompt, then the claim and the order's instructions. */
const verdictMessages = (claim: string, instructions: string[]) => [
  { role: 'system' as const, content: SYSTEM_PROMPT },
  { role: 'user' as const, content: [renderClaim(claim), '', ...instructions].join('\n') },
];

/** The llm-only baseline's single judgement, label first (`order: label-first`; the prompt of runs before issue 37): the claim alone → label and rationale (the model's own knowledge). */
export const llmOnlyVerdictTask = defineTask({
  id: 'llm-only.verdict',
  version: '1',
  role: 'judge',
  schemaName: 'llm_only_verdict',
  maxTokens: 400,
  variables: llmOnlyVerdictVariables,
  output: llmOnlyVerdictOutput,
  render: ({ claim }) =>
    verdictMessages(claim, [
      'Give the label and a short rationale from your own knowledge.',
      'Reply only with JSON: {"label": "SUPPORTED" | "REFUTED" | "NEI", "rationale": "..."}',
    ]),
});

/** The llm-only baseline's single judgement, rationale first (the default): the model reasons from what it knows, then labels. */
export const llmOnlyReasonedVerdictTask = defineTask({
  id: 'llm-only.verdict-rationale-first',
  version: '1',
  role: 'judge',
  schemaName: 'llm_only_verdict_rationale_first',
  maxTokens: 400,
  variables: llmOnlyVerdictVariables,
  output: llmOnlyReasonedVerdictOutput,
  render: ({ claim }) =>
    verdictMessages(claim, [
      'First reason briefly from your own knowledge, then give the label.',
      'Reply only with JSON: {"rationale": "...", "label": "SUPPORTED" | "REFUTED" | "NEI"}',
    ]),
});
