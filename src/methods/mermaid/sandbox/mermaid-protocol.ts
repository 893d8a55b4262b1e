/**
 * MERMAID's executor protocol as pure, sandbox-safe logic (spec §5.1): what one JSON step means,
 * how a tool action becomes tool arguments, the history lines, and how an answer maps to a label.
 * Workflows import values from here; no imports with runtime effect.
 */
import type { VerdictLabel } from '../../../shared/constants';
import type { ToolName } from '../../../shared/tools';
import type { MermaidFidelity, MermaidLabelSet } from './mermaid-settings';

export interface MermaidTriplet {
  subject: string;
  relation: string;
  /** A string; the released logs hold a list in 2 of 7,148 cases. */
  object: string | string[];
  /** The paper's optional fourth field; never a memory key (§9.8). */
  attributes?: string | string[] | null;
}

/** D_c = (G_c, k_c): the claim's triplets and its topic. */
export interface MermaidDecomposition {
  triplets: MermaidTriplet[];
  topic: string;
}

/** What the code falls back to when the decomposer's JSON does not parse: no memory keys at all. */
export const FAILED_DECOMPOSITION: MermaidDecomposition = { triplets: [], topic: 'unknown' };

/** A tool as the executor is told about it (from the worker's registry). */
export interface MermaidToolEntry {
  name: ToolName;
  description: string;
  /** JSON schema of the arguments. */
  parameters: Record<string, unknown>;
  /** The first required string argument: where a plain-string `input` goes (§9.5). */
  primaryArgument: string;
}

/** One executor reply, as loosely as the protocol allows. */
export interface ExecutorStep {
  thought?: string | null;
  action?: { name?: string | null; reason?: string | null; input?: string | Record<string, unknown> | null } | null;
  answer?: string | null;
}

export type StepDecision =
  | { kind: 'answer'; thought: string; answer: string }
  | { kind: 'tool'; thought: string; tool: ToolName; args: Record<string, unknown>; input: string }
  | { kind: 'noTool'; thought: string }
  | { kind: 'unknownTool'; thought: string; name: string }
  | { kind: 'thought'; thought: string };

/** The released code's aliases (wikipedia, google) plus the paper's tool names mapped to verity's tools. */
export const TOOL_ALIASES: Record<string, ToolName> = {
  wikipedia: 'search_wikipedia',
  google: 'web_search',
  search_google: 'web_search',
  google_search: 'web_search',
  search: 'web_search',
  scholar: 'scholar_search',
  google_scholar: 'scholar_search',
  search_google_scholar: 'scholar_search',
  search_arxiv: 'scholar_search',
  search_pubmed: 'scholar_search',
};

/** Unparsable replies are kept as a thought of at most this many characters (§5.2). */
export const UNPARSABLE_THOUGHT_CHARS = 1000;

/** The subjects and objects of the triplets, trimmed and non-empty: E_c, the memory keys (§3.2). */
export function entitiesOf(decomposition: MermaidDecomposition): string[] {
  const entities: string[] = [];
  for (const triplet of decomposition.triplets) {
    const objects = Array.isArray(triplet.object) ? triplet.object : [triplet.object];
    for (const entity of [triplet.subject, ...objects]) {
      if (typeof entity === 'string' && entity.trim() !== '') entities.push(entity.trim());
    }
  }
  return entities;
}

/**
 * What one executor reply asks for (Algorithm 1, lines 13–27): an answer has priority; an action
 * named "none" or "" means no tool; an unknown tool is reported back; the chosen tool gets its
 * arguments from `input` (the claim when absent).
 */
export function interpretStep(step: ExecutorStep, tools: readonly MermaidToolEntry[], claim: string, fidelity: MermaidFidelity): StepDecision {
  const thought = typeof step.thought === 'string' ? step.thought : '';
  if (typeof step.answer === 'string' && step.answer.trim() !== '') return { kind: 'answer', thought, answer: step.answer.trim() };
  if (!step.action) return { kind: 'thought', thought };
  const requested = (step.action.name ?? '').trim().toLowerCase();
  if (requested === '' || requested === 'none') return { kind: 'noTool', thought };
  const name = TOOL_ALIASES[requested] ?? requested;
  const tool = tools.find((entry) => entry.name === name);
  if (!tool) return { kind: 'unknownTool', thought, name: requested };
  const rawInput = step.action.input ?? claim;
  const input = typeof rawInput === 'string' ? rawInput : JSON.stringify(rawInput);
  return { kind: 'tool', thought, tool: tool.name, args: toolArguments(tool, rawInput, fidelity), input };
}

/**
 * The released code always sends `{query: input}` (so title-based tools fail, and still count);
 * the paper mode puts a string into the tool's first required string argument and passes an
 * object through as the arguments (§9.5).
 */
export function toolArguments(tool: MermaidToolEntry, input: string | Record<string, unknown>, fidelity: MermaidFidelity): Record<string, unknown> {
  if (fidelity === 'code-compat') return { query: typeof input === 'string' ? input : JSON.stringify(input) };
  return typeof input === 'string' ? { [tool.primaryArgument]: input } : { ...input };
}

/** The history lines of a step, in the released code's wording (§5.1). */
export function historyLines(decision: StepDecision, tools: readonly MermaidToolEntry[], observation?: string): string[] {
  const lines = [`Thought: ${decision.thought}`];
  switch (decision.kind) {
    case 'answer':
      return [...lines, `Answer: ${decision.answer}`];
    case 'noTool':
      return [...lines, 'Action: No tool needed, continuing reasoning.'];
    case 'unknownTool':
      return [...lines, `Action: Tool '${decision.name}' not found. Available: ${tools.map((tool) => tool.name).join(', ') || 'none'}`];
    case 'tool':
      return [...lines, `Action: Used ${decision.tool} with input: ${decision.input}`, `Observation: ${observation ?? ''}`];
    case 'thought':
      return lines;
  }
}

/** The history line of a reply that was not valid JSON (the code keeps the raw text as a thought). */
export function unparsableLine(reason: string): string {
  return `Thought: ${reason.slice(0, UNPARSABLE_THOUGHT_CHARS)}`;
}

export type AnswerClass = 'positive' | 'negative' | 'invalid';

const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

/**
 * Documented aliases of the positive and negative labels (README "Answers"): a model that says
 * "SUPPORTED", "Supports" or "True" on SciFact (labels SUPPORT/CONTRADICT) means the positive label.
 * Separators (space, underscore, hyphen) are ignored.
 */
export const MERMAID_ANSWER_ALIASES = {
  positive: ['support', 'supports', 'supported', 'true', 'yes', '1'],
  negative: ['contradict', 'contradicts', 'contradicted', 'refute', 'refutes', 'refuted', 'notsupported', 'notsupport', 'false', 'no', '0'],
} as const;

const compact = (text: string): string => text.replace(/[\s_-]+/g, '');

/**
 * The answer's class in the label set: its positive or negative label (case, quotes and a final
 * period ignored; "yes"/"1" count as True like the code's scorer), with `aliases` also
 * MERMAID_ANSWER_ALIASES, else invalid (an off-vocabulary answer).
 */
export function classifyAnswer(answer: string, labels: MermaidLabelSet, options: { aliases?: boolean } = {}): AnswerClass {
  const normalized = answer
    .trim()
    .replace(/^["'`]+|["'`.]+$/g, '')
    .trim()
    .toLowerCase();
  const binary = labels.positive === 'True';
  if (normalized === labels.positive.toLowerCase() || (binary && TRUE_WORDS.has(normalized))) return 'positive';
  if (normalized === labels.negative.toLowerCase() || (binary && FALSE_WORDS.has(normalized))) return 'negative';
  if (options.aliases) {
    const word = compact(normalized);
    if ((MERMAID_ANSWER_ALIASES.positive as readonly string[]).includes(word)) return 'positive';
    if ((MERMAID_ANSWER_ALIASES.negative as readonly string[]).includes(word)) return 'negative';
  }
  return 'invalid';
}

/** Binary verdicts: the positive label is SUPPORTED; negative and off-schema answers count as REFUTED (§9.14). */
export function verdictLabelOf(answerClass: AnswerClass): VerdictLabel {
  return answerClass === 'positive' ? 'SUPPORTED' : 'REFUTED';
}
