import { z } from 'zod';
import { renderClaim } from '../../llm/prompt-conventions';
import { defineTask, type LlmTaskDefinition } from '../../llm/task-registry';
import { MERMAID_FIDELITIES } from '../../shared/methods/mermaid';
import { TOOL_NAMES } from '../../shared/tools';
import { renderExecutorPrompt, type ExecutorPromptInput } from './executor-prompt';

const stringOrList = z.union([z.string(), z.array(z.string())]);

export const mermaidTriplet = z.object({
  subject: z.string(),
  relation: z.string(),
  object: stringOrList,
  attributes: stringOrList.nullable().optional(),
});

export const mermaidDecompositionOutput = z.object({ triplets: z.array(mermaidTriplet), topic: z.string() });
export type MermaidDecompositionOutput = z.infer<typeof mermaidDecompositionOutput>;

const DECOMPOSER_PROMPT = [
  'You are the claim-analysis agent in a hierarchical veracity-assessment system.',
  'First, extract the knowledge triplets from the claim, each with four parts:',
  '1. subject, which must be a noun;',
  '2. relation, which must be a verb;',
  '3. object, which must be a noun;',
  '4. attributes, only for information that cannot be captured as a subject, relation or object (else leave it out).',
  'Second, analyse the topic of the claim: its semantic domain (e.g. "Entertainment; Economics").',
  'Reply only in JSON: {"triplets": [{"subject": "", "relation": "", "object": "", "attributes": ""}], "topic": ""}',
].join('\n');

/** The Decomposer ϕ: claim → D_c = (triplets, topic). The claim is the user message, as in the code. */
export const mermaidDecomposeTask = defineTask({
  id: 'mermaid.decompose',
  version: '1',
  role: 'decomposer',
  schemaName: 'mermaid_decomposition',
  maxTokens: 600,
  variables: z.object({ claim: z.string().min(1) }),
  output: mermaidDecompositionOutput,
  render: ({ claim }) => [
    { role: 'system', content: DECOMPOSER_PROMPT },
    { role: 'user', content: renderClaim(claim) },
  ],
});

const toolEntry = z.object({
  name: z.enum(TOOL_NAMES as [string, ...string[]]),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  primaryArgument: z.string(),
});

export const executorVariables = z.object({
  claim: z.string().min(1),
  decomposition: mermaidDecompositionOutput.nullable(),
  memory: z.array(z.string()),
  history: z.array(z.string()),
  tools: z.array(toolEntry),
  labels: z.object({ positive: z.string(), negative: z.string() }),
  fidelity: z.enum(MERMAID_FIDELITIES),
});

/** One ReAct step: a thought plus either a tool action or a final answer (lenient: the workflow applies the protocol). */
export const executorStepOutput = z.object({
  thought: z.string().nullable().optional(),
  action: z
    .object({
      name: z.string().nullable().optional(),
      reason: z.string().nullable().optional(),
      input: z.union([z.string(), z.record(z.string(), z.unknown())]).nullable().optional(),
    })
    .nullable()
    .optional(),
  answer: z.string().nullable().optional(),
});
export type ExecutorStepOutput = z.infer<typeof executorStepOutput>;

export const forcedAnswerOutput = z.object({ thought: z.string().nullable().optional(), answer: z.string() });
export type ForcedAnswerOutput = z.infer<typeof forcedAnswerOutput>;

function renderExecutor(variables: z.infer<typeof executorVariables>, forced: boolean) {
  const { system, user } = renderExecutorPrompt(variables as ExecutorPromptInput, forced);
  return [
    { role: 'system' as const, content: system },
    { role: 'user' as const, content: user },
  ];
}

/** The Executor π: one stateless call per step over the re-rendered prompt (§9.13). */
export const mermaidExecutorStepTask = defineTask({
  id: 'mermaid.executor-step',
  version: '1',
  role: 'executor',
  schemaName: 'mermaid_executor_step',
  maxTokens: 500,
  variables: executorVariables,
  output: executorStepOutput,
  render: (variables) => renderExecutor(variables, false),
});

/** ForceAnswer(π, [c; D_c; M_c; H_Tmax]) at T_max (paper; §6.3): the same prompt, answers only. */
export const mermaidForceAnswerTask = defineTask({
  id: 'mermaid.force-answer',
  version: '1',
  role: 'executor',
  schemaName: 'mermaid_forced_answer',
  maxTokens: 400,
  variables: executorVariables,
  output: forcedAnswerOutput,
  render: (variables) => renderExecutor(variables, true),
});

/** The `mermaid` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const mermaidTasks: LlmTaskDefinition[] = [mermaidDecomposeTask, mermaidExecutorStepTask, mermaidForceAnswerTask] as unknown as LlmTaskDefinition[];
