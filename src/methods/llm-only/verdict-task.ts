import { z } from 'zod';
import { renderClaim } from '../../llm/prompt-conventions';
import { defineTask } from '../../llm/task-registry';
import { VERDICT_LABELS } from '../../shared/constants';

export const llmOnlyVerdictVariables = z.object({ claim: z.string().min(1) });

export const llmOnlyVerdictOutput = z.object({
  label: z.enum(VERDICT_LABELS),
  rationale: z.string(),
});

export type LlmOnlyVerdictOutput = z.infer<typeof llmOnlyVerdictOutput>;

const SYSTEM_PROMPT = [
  'You are a careful fact-checker. Decide whether the claim is true using only what you know; no evidence is given.',
  'Answer SUPPORTED when you are confident it is true, REFUTED when you are confident it is false, and NEI when',
  'you do not know enough to decide.',
].join(' ');

/** The llm-only baseline's single judgement: the claim alone → label and rationale (the model's own knowledge). */
export const llmOnlyVerdictTask = defineTask({
  id: 'llm-only.verdict',
  version: '1',
  role: 'judge',
  schemaName: 'llm_only_verdict',
  maxTokens: 400,
  variables: llmOnlyVerdictVariables,
  output: llmOnlyVerdictOutput,
  render: ({ claim }) => [
    { role: 'system', content: SYSTEM_PROMPT },
    {
      role: 'user',
      content: [
        renderClaim(claim),
        '',
        'Give the label and a short rationale from your own knowledge.',
        'Reply only with JSON: {"label": "SUPPORTED" | "REFUTED" | "NEI", "rationale": "..."}',
      ].join('\n'),
    },
  ],
});
