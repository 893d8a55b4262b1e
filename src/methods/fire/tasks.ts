import { z } from 'zod';
import { renderClaim, renderEvidence } from '../../llm/prompt-conventions';
import { defineTask, type LlmTaskDefinition } from '../../llm/task-registry';
import type { ChatMessage } from '../../llm/types';
import { liftFireStep } from './sandbox/fire-step';
import { FIRE_RELEASED_MAX_TOKENS, releasedKnowledge, renderFireReleased } from './sandbox/released-prompts';

/**
 * FIRE's two prompts (spec §6.1, paraphrased from eval/fire/verify_atomic_claim.py): answer or
 * search, and the forced final answer. The knowledge is one line per search, as FIRE joins its
 * results with newlines; "N/A" when there is none.
 */

export const FIRE_SYSTEM_PROMPT = 'You are a fact-checking agent responsible for verifying the accuracy of claims.';
export const FIRE_SCHEMA_NAMES = { step: 'fire_step', finalAnswer: 'fire_final_answer' } as const;

const knowledgeItem = z.object({ query: z.string(), result: z.string() });
const fireVariables = z.object({
  claim: z.string().min(1),
  knowledge: z.array(knowledgeItem),
  /** 1 for the first try; later tries (after an unreadable answer) say so, which also makes them new requests. */
  attempt: z.number().int().min(1),
});

/**
 * One step: the reasoning, then exactly one of a final answer (with its confidence) or one search
 * query. The choice is an anyOf under `next`, so constrained decoding can produce neither both nor
 * none (a small model otherwise answers `final_answer: null, search_query: null` step after step).
 */
export const fireStepOutput = z.preprocess(
  liftFireStep,
  z.object({
    reasoning: z.string(),
    next: z.union([
      z.object({ final_answer: z.enum(['True', 'False']), confidence: z.number().min(0).max(1).nullable() }),
      z.object({ search_query: z.string() }),
    ]),
  }),
);
export const fireFinalAnswerOutput = z.object({ reasoning: z.string(), final_answer: z.string() });
export type FireFinalAnswerOutput = z.infer<typeof fireFinalAnswerOutput>;

/**
 * The step's protocol spelled out for models the schema does not constrain (small local ones): the one
 * tool and its one argument, one search per step, both reply shapes and an example search step.
 */
const FIRE_STEP_PROTOCOL = [
  'You have one tool, Google Search, which takes one argument: the query. One search per step; its results are added to the KNOWLEDGE for the next step.',
  'Reply only with JSON: your "reasoning", then in "next" EITHER the final answer OR one search, never both. An answer:',
  '{"reasoning": "...", "next": {"final_answer": "True" | "False", "confidence": 0.0 to 1.0}}',
  'or a search:',
  '{"reasoning": "...", "next": {"search_query": "..."}}',
  'Example of a search step: {"reasoning": "The KNOWLEDGE does not say when the Eiffel Tower was completed.", "next": {"search_query": "Eiffel Tower completion year"}}',
];

function knowledgeBlock(knowledge: z.infer<typeof knowledgeItem>[]): string[] {
  if (knowledge.length === 0) return ['KNOWLEDGE:', 'N/A'];
  return ['KNOWLEDGE:', renderEvidence(knowledge.map((k, i) => ({ id: `s${i + 1}`, text: k.result })))];
}

function retryNote(attempt: number): string[] {
  return attempt > 1 ? ['', `(Attempt ${attempt}: the previous answer could not be read. Follow the output format exactly.)`] : [];
}

/** Both prompts: the system prompt, then the instructions, the KNOWLEDGE, the STATEMENT and any retry note. */
function messages({ claim, knowledge, attempt }: z.infer<typeof fireVariables>, instructions: string[]): ChatMessage[] {
  const lines = ['Instructions:', ...instructions, '', ...knowledgeBlock(knowledge), '', 'STATEMENT:', renderClaim(claim), ...retryNote(attempt)];
  return [
    { role: 'system', content: FIRE_SYSTEM_PROMPT },
    { role: 'user', content: lines.join('\n') },
  ];
}

export const fireStepTask = defineTask({
  id: 'fire.step',
  version: '3',
  role: 'default',
  schemaName: FIRE_SCHEMA_NAMES.step,
  maxTokens: 600,
  variables: fireVariables,
  output: fireStepOutput,
  render: (variables) =>
    messages(variables, [
      '1. You are given a STATEMENT and the KNOWLEDGE gathered so far.',
      '2. Based on the KNOWLEDGE, assess the factual accuracy of the STATEMENT.',
      '3. Before presenting your conclusion, think step by step, summarising the key points of the KNOWLEDGE (in "reasoning").',
      '4. If the KNOWLEDGE lets you decide confidently, give "final_answer": "True" or "False", with your "confidence" (0 to 1).',
      '5. Otherwise, give ONE Google search query in "search_query" that could provide',
      '   additional evidence. It should seek new information, not already in the KNOWLEDGE, that helps verify the STATEMENT.',
      ...FIRE_STEP_PROTOCOL,
    ]),
});

export const fireFinalAnswerTask = defineTask({
  id: 'fire.finalAnswer',
  version: '2',
  role: 'judge',
  schemaName: FIRE_SCHEMA_NAMES.finalAnswer,
  maxTokens: 500,
  variables: fireVariables,
  output: fireFinalAnswerOutput,
  render: (variables) =>
    messages(variables, [
      '1. You are given a STATEMENT and the KNOWLEDGE gathered so far.',
      '2. Based on the KNOWLEDGE and your own knowledge, assess the factual accuracy of the STATEMENT.',
      '3. Think step by step, summarising the key points of the KNOWLEDGE (in "reasoning").',
      '4. You must give a final answer: "final_answer" is "True" or "False".',
      'Reply only with JSON: {"reasoning": "...", "final_answer": "True" | "False"}',
    ]),
});

const releasedVariables = z.object({ system: z.string(), template: z.string().min(1), claim: z.string().min(1), results: z.array(z.string()) });

/** The released code's two prompts (settings `releasedPrompts`): its system message, its template filled in, the raw answer back. */
const releasedTask = (prompt: 'step' | 'final') =>
  defineTask({
    id: prompt === 'step' ? 'fire.released.step' : 'fire.released.finalAnswer',
    version: '1',
    role: prompt === 'step' ? 'default' : 'judge',
    schemaName: prompt === 'step' ? 'fire_released_step' : 'fire_released_final_answer',
    maxTokens: FIRE_RELEASED_MAX_TOKENS,
    answer: 'text',
    variables: releasedVariables,
    output: z.object({ text: z.string() }),
    render: ({ system, template, claim, results }): ChatMessage[] => [
      { role: 'system', content: system },
      { role: 'user', content: renderFireReleased(template, claim, releasedKnowledge(results, prompt)) },
    ],
  });

export const fireReleasedTasks: LlmTaskDefinition[] = [releasedTask('step'), releasedTask('final')] as LlmTaskDefinition[];

/** The `fire` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const fireTasks: LlmTaskDefinition[] = [fireStepTask, fireFinalAnswerTask, ...fireReleasedTasks] as LlmTaskDefinition[];
