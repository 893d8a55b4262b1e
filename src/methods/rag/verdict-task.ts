import { z } from 'zod';
import { defineTask } from '../../llm/task-registry';
import { renderClaim, renderEvidence } from '../../llm/prompt-conventions';
import { VERDICT_LABELS } from '../../shared/constants';

export const ragVerdictVariables = z.object({
  claim: z.string().min(1),
  passages: z.array(z.object({ id: z.string(), title: z.string(), text: z.string() })),
});

export const ragVerdictOutput = z.object({
  label: z.enum(VERDICT_LABELS),
  rationale: z.string(),
  citedPassageIds: z.array(z.string()),
});

/** The same fields, the rationale first: constrained decoding reasons before it writes the label. */
export const ragReasonedVerdictOutput = z.object({
  rationale: z.string(),
  label: z.enum(VERDICT_LABELS),
  citedPassageIds: z.array(z.string()),
});

export type RagVerdictOutput = z.infer<typeof ragVerdictOutput>;

const SYSTEM_PROMPT = [
  'You are a careful fact-checker. Decide whether the evidence passages support or refute the claim.',
  'Use only the evidence given. Answer SUPPORTED when the evidence confirms the claim, REFUTED when it',
  'contradicts it, and NEI when it does not say enough either way. Cite the ids of the passages you rely on.',
].join(' ');

const renderPassages = (passages: z.infer<typeof ragVerdictVariables>['passages']) => renderEvidence(passages.map((p) => ({ id: p.id, text: `${p.title}: ${p.text}` })));

/** Both orders' messages: the system prompt, then the claim, the passages and the order's instructions. */
const verdictMessages = ({ claim, passages }: z.infer<typeof ragVerdictVariables>, instructions: string[]) => [
  { role: 'system' as const, content: SYSTEM_PROMPT },
  { role: 'user' as const, content: [renderClaim(claim), '', renderPassages(passages), '', ...instructions].join('\n') },
];

/** The rag baseline's single judgement, label first (`order: label-first`; the prompt of runs before issue 37): claim + top-k passages → label, rationale, cited ids. */
export const ragVerdictTask = defineTask({
  id: 'rag.verdict',
  version: '2',
  role: 'judge',
  schemaName: 'rag_verdict',
  maxTokens: 400,
  variables: ragVerdictVariables,
  output: ragVerdictOutput,
  render: (variables) =>
    verdictMessages(variables, [
      'Give the label, a short rationale and the ids of the passages you cite.',
      'Reply only with JSON: {"label": "SUPPORTED" | "REFUTED" | "NEI", "rationale": "...", "citedPassageIds": ["..."]}',
    ]),
});

/** The rag baseline's single judgement, rationale first (the default): the model reasons over the passages, then labels and cites. */
export const ragReasonedVerdictTask = defineTask({
  id: 'rag.verdict-rationale-first',
  version: '1',
  role: 'judge',
  schemaName: 'rag_verdict_rationale_first',
  maxTokens: 400,
  variables: ragVerdictVariables,
  output: ragReasonedVerdictOutput,
  render: (variables) =>
    verdictMessages(variables, [
      'First reason briefly over the passages, then give the label and the ids of the passages you cite.',
      'Reply only with JSON: {"rationale": "...", "label": "SUPPORTED" | "REFUTED" | "NEI", "citedPassageIds": ["..."]}',
    ]),
});
