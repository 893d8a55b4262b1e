import { z } from 'zod';
import { renderClaim } from '../../llm/prompt-conventions';
import { defineTask, type LlmTaskDefinition } from '../../llm/task-registry';
import { MERMAID_FIDELITIES } from './sandbox/mermaid-settings';
import { liftExecutorReply, liftForcedAnswer } from './sandbox/mermaid-step';
import { TOOL_NAMES, type ToolName } from '../../shared/tools';
import { renderExecutorPrompt, type ExecutorPromptInput } from './executor-prompt';
import { mermaidReleasedTasks } from './released-tasks';

const stringOrList = z.union([z.string(), z.array(z.string())]);

export const mermaidTriplet = z.object({
  subject: z.string(),
  relation: z.string(),
  object: stringOrList,
  /** The paper's fourth part; null when the triplet has none (strict schemas have no optional fields). */
  attributes: z.union([z.string(), z.array(z.string()), z.null()]),
});

/** The code's prompt asks for no attributes, so a server that ignores the schema may leave them out: null. */
function withNullAttributes(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { triplets?: unknown }).triplets)) return raw;
  const triplets = (raw as { triplets: unknown[] }).triplets.map((triplet) =>
    typeof triplet === 'object' && triplet !== null && !('attributes' in triplet) ? { ...triplet, attributes: null } : triplet,
  );
  return { ...raw, triplets };
}

export const mermaidDecompositionOutput = z.preprocess(withNullAttributes, z.object({ triplets: z.array(mermaidTriplet), topic: z.string() }));
export type MermaidDecompositionOutput = z.infer<typeof mermaidDecompositionOutput>;

const DECOMPOSER_PROMPT = [
  'You are the claim-analysis agent in a hierarchical veracity-assessment system.',
  'First, extract the knowledge triplets from the claim, each with four parts:',
  '1. subject, which must be a noun;',
  '2. relation, which must be a verb;',
  '3. object, which must be a noun;',
  '4. attributes, only for information that cannot be captured as a subject, relation or object (else null).',
  'Second, analyse the topic of the claim: its semantic domain (e.g. "Entertainment; Economics").',
  'Reply only in JSON: {"triplets": [{"subject": "...", "relation": "...", "object": "...", "attributes": "..." or null}], "topic": "..."}',
].join('\n');

/** The Decomposer ϕ: claim → D_c = (triplets, topic). The claim is the user message, as in the code. */
export const mermaidDecomposeTask = defineTask({
  id: 'mermaid.decompose',
  version: '2',
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
  /** The tool-use hints (settings.toolHints); absent in requests made before the setting, which had them. */
  toolHints: z.boolean().optional(),
});

/**
 * One ReAct step: a thought, then exactly one of a tool call (a tool offered to verity's executor, one
 * string argument) or a final answer. The choice is an anyOf under `next` (a strict schema's root must be
 * an object), so constrained decoding can produce neither both nor none. Answers in the paper's flat
 * format are lifted into this shape before validation (liftExecutorReply).
 */
/** The step's shape with `answer` as given: any string (validation) or the label set's enum (sent). */
function executorStepShape(answer: z.ZodType<string>) {
  return z.object({
    thought: z.string(),
    next: z.union([z.object({ action: z.object({ name: z.enum(TOOL_NAMES as [ToolName, ...ToolName[]]), input: z.string() }) }), z.object({ answer })]),
  });
}

export const executorStepOutput = z.preprocess(liftExecutorReply, executorStepShape(z.string()));
export type ExecutorStepOutput = z.infer<typeof executorStepOutput>;

export const forcedAnswerOutput = z.preprocess(liftForcedAnswer, z.object({ thought: z.string(), answer: z.string() }));
export type ForcedAnswerOutput = z.infer<typeof forcedAnswerOutput>;

/**
 * The final answer as the label set's enum (issue 37 §2.2): a server with strict schemas can answer
 * nothing else. Validation stays any string, so aliases and off-vocabulary answers of servers
 * without them are still read and counted (classifyAnswer).
 */
function labelEnum({ labels }: z.infer<typeof executorVariables>) {
  return z.enum([labels.positive, labels.negative]);
}

export function constrainedExecutorStep(variables: z.infer<typeof executorVariables>) {
  return executorStepShape(labelEnum(variables));
}

export function constrainedForcedAnswer(variables: z.infer<typeof executorVariables>) {
  return z.object({ thought: z.string(), answer: labelEnum(variables) });
}

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
  // 3: the tool-use hints only with toolHints (issue 37, defect 7). 4: the answer sent as the label enum.
  version: '4',
  role: 'executor',
  schemaName: 'mermaid_executor_step',
  maxTokens: 500,
  variables: executorVariables,
  output: executorStepOutput,
  constrainedOutput: constrainedExecutorStep,
  render: (variables) => renderExecutor(variables, false),
});

/** ForceAnswer(π, [c; D_c; M_c; H_Tmax]) at T_max (paper; §6.3): the same prompt, answers only. */
export const mermaidForceAnswerTask = defineTask({
  id: 'mermaid.force-answer',
  // 3: the tool-use hints only with toolHints (issue 37, defect 7). 4: the answer sent as the label enum.
  version: '4',
  role: 'executor',
  schemaName: 'mermaid_forced_answer',
  maxTokens: 400,
  variables: executorVariables,
  output: forcedAnswerOutput,
  constrainedOutput: constrainedForcedAnswer,
  render: (variables) => renderExecutor(variables, true),
});

/** The `mermaid` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const mermaidTasks: LlmTaskDefinition[] = [...([mermaidDecomposeTask, mermaidExecutorStepTask, mermaidForceAnswerTask] as unknown as LlmTaskDefinition[]), ...mermaidReleasedTasks];
