import { z } from 'zod';
import { renderClaim } from '../llm/prompt-conventions';
import { defineTask, type LlmTaskDefinition } from '../llm/task-registry';
import { WORTHINESS_REASONS } from '../shared/check/document';

/**
 * The three LLM steps that turn a text into claims worth verifying, after SAFE / VeriScore /
 * Factcheck-GPT: atomic claims of one sentence (read in its context), each made self-contained
 * (pronouns and references resolved from the document), then judged check-worthy or not.
 */

export const CHECK_SCHEMA_NAMES = {
  extract: 'check_extract',
  decontextualise: 'check_decontextualise',
  worthiness: 'check_worthiness',
} as const;

/** Line prefixes of the check prompts (the simulator finds the sentence and the context by them). */
export const SENTENCE_PREFIX = 'Sentence: ';
export const CONTEXT_PREFIX = 'Context: ';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

const sentenceVariables = z.object({ sentence: z.string().min(1), context: z.string() });
const claimVariables = z.object({ claim: z.string().min(1), context: z.string() });

export const extractOutput = z.object({ claims: z.array(z.string()) });
export type ExtractOutput = z.infer<typeof extractOutput>;
export const decontextualiseOutput = z.object({ claim: z.string() });
export type DecontextualiseOutput = z.infer<typeof decontextualiseOutput>;
export const worthinessOutput = z.object({ check_worthy: z.boolean(), reason: z.enum(['check-worthy', ...WORTHINESS_REASONS]) });
export type WorthinessOutput = z.infer<typeof worthinessOutput>;

const SYSTEM = 'You help fact-checkers: you turn a text into precise, self-contained factual claims.';

export const checkExtractTask = defineTask({
  id: 'check.extract',
  version: '1',
  role: 'default',
  schemaName: CHECK_SCHEMA_NAMES.extract,
  maxTokens: 800,
  variables: sentenceVariables,
  output: extractOutput,
  render: ({ sentence, context }) => [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        'Break the SENTENCE into atomic claims: each states exactly one piece of information, in the words of the sentence where possible.',
        'Read the sentence in its context, but take claims only from the sentence itself. Keep opinions and questions as they are (a later step judges them); leave out nothing the sentence states.',
        'If the sentence states nothing (a heading, a greeting), give an empty list.',
        '',
        `${CONTEXT_PREFIX}${oneLine(context)}`,
        `${SENTENCE_PREFIX}${oneLine(sentence)}`,
        '',
        'Reply only with JSON: {"claims": ["...", "..."]}',
      ].join('\n'),
    },
  ],
});

export const checkDecontextualiseTask = defineTask({
  id: 'check.decontextualise',
  version: '1',
  role: 'default',
  schemaName: CHECK_SCHEMA_NAMES.decontextualise,
  maxTokens: 300,
  variables: claimVariables,
  output: decontextualiseOutput,
  render: ({ claim, context }) => [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        'Make the CLAIM self-contained: replace pronouns and vague references ("it", "he", "the company", "that year") with the names, dates and things they refer to in the CONTEXT, so that the claim can be checked without the document.',
        'Change nothing else: keep its meaning, add no new information, and return it unchanged if it already stands alone.',
        '',
        `${CONTEXT_PREFIX}${oneLine(context)}`,
        renderClaim(claim),
        '',
        'Reply only with JSON: {"claim": "..."}',
      ].join('\n'),
    },
  ],
});

export const checkWorthinessTask = defineTask({
  id: 'check.worthiness',
  version: '1',
  role: 'default',
  schemaName: CHECK_SCHEMA_NAMES.worthiness,
  maxTokens: 150,
  variables: claimVariables,
  output: worthinessOutput,
  render: ({ claim, context }) => [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        'Decide whether the CLAIM is worth fact-checking: a factual statement about the world that evidence can support or refute.',
        'It is not when it is an opinion or value judgement ("opinion"), a question ("question"), true by definition ("tautology"), not a statement of fact such as a greeting, a wish or an instruction ("not-factual"), or too vague to check ("too-vague").',
        '',
        `${CONTEXT_PREFIX}${oneLine(context)}`,
        renderClaim(claim),
        '',
        `Reply only with JSON: {"check_worthy": true | false, "reason": "check-worthy" | ${WORTHINESS_REASONS.map((r) => `"${r}"`).join(' | ')}}`,
        '"reason" is "check-worthy" exactly when "check_worthy" is true.',
      ].join('\n'),
    },
  ],
});

/** The check.* tasks (registered by src/methods/tasks.ts; not part of any verification's identity). */
export const checkTasks: LlmTaskDefinition[] = [checkExtractTask, checkDecontextualiseTask, checkWorthinessTask] as LlmTaskDefinition[];

/** Task prefix of the document steps, left out of the verification identity's prompt hash. */
export const CHECK_TASK_PREFIX = 'check.';

/** id → version of the check tasks: part of a document check's identity. */
export function checkPromptVersions(): Record<string, string> {
  return Object.fromEntries(checkTasks.map((task) => [task.id, task.version]));
}
