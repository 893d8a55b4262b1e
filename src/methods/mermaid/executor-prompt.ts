import { parseClaim, renderClaim } from '../../llm/prompt-conventions';
import type { MermaidFidelity, MermaidLabelSet } from './sandbox/mermaid-settings';
import type { MermaidDecomposition, MermaidToolEntry } from './sandbox/mermaid-protocol';

/** What the executor's prompt is filled with: P_t = [c; D_c; M_c; H_t] plus the tools and the answer labels. */
export interface ExecutorPromptInput {
  claim: string;
  /** D_c; null in the single-agent ablation (no Background slot, §6.4). */
  decomposition: MermaidDecomposition | null;
  /** M_c: recalled `[Memory] …` lines. */
  memory: string[];
  /** H_t: Thought / Action / Observation / Answer lines so far. */
  history: string[];
  tools: MermaidToolEntry[];
  labels: MermaidLabelSet;
  fidelity: MermaidFidelity;
  /** verity's tool-use hints (example step, one-call rule, tool names); undefined: on, as before the setting. */
  toolHints?: boolean;
}

export const BACKGROUND_PREFIX = 'Background: ';
export const MEMORY_LINE_PREFIX = '[Memory] ';
export const TOOLS_HEADER = 'Available tools:';
export const NO_HISTORY = 'None yet.';
export const FORCED_ANSWER_INSTRUCTION =
  'You have reached the maximum number of steps. You must now output the final-answer JSON only; tool use is not allowed.';
export const ONE_ARGUMENT_NOTE = 'Each tool takes one argument, written as the string "input" (a search query, or an article title where the tool asks for one).';
/** A step in the exact JSON shape (the tool is the first one offered), so a small model sees what a call looks like. */
const EXAMPLE_THOUGHT = 'I need to know when the Eiffel Tower was completed.';
const EXAMPLE_INPUT = 'Eiffel Tower';

/**
 * The executor's system message (paper A.2; the code's wording in code-compat), then the code's fixed user turn.
 * The reply formats are the step schema's (`{"thought", "next": {"action"} | {"answer"}}`; the forced answer's
 * `{"thought", "answer"}`); with `toolHints` also an example step, the one-call-per-step rule and the tool
 * names (verity's, not the paper's: off by default).
 */
export function renderExecutorPrompt(input: ExecutorPromptInput, forced = false): { system: string; user: string } {
  const compat = input.fidelity === 'code-compat';
  const { positive, negative } = input.labels;
  const toolUse = input.tools.length > 0 && !forced;
  const hints = toolUse && input.toolHints !== false;
  const answerFormat = (label: string) => (forced ? `{"thought": "your reasoning", "answer": "${label}"}` : `{"thought": "your reasoning", "next": {"answer": "${label}"}}`);
  const lines = [
    compat ? 'You are a ReAct (Reasoning and Acting) agent for fact verification.' : 'You are a ReAct (Reasoning and Acting) agent for Veracity Assessment.',
    renderClaim(input.claim),
    ...(input.decomposition ? [`${BACKGROUND_PREFIX}${oneLine(JSON.stringify(input.decomposition, withoutNullAttributes))}`] : []),
    ...historySlot(input, compat),
    ...toolsSlot(input.tools, compat),
    '',
    'CRITICAL: respond with ONLY a valid JSON object. No explanations, no markdown, no text before or after the JSON.',
    compat ? 'Check history firstly.' : 'Check the history first.',
    ...(hints ? ['Each step is one JSON object: your "thought", then in "next" EITHER one tool call OR the final answer, never both.'] : []),
    ...(toolUse ? ['To use a tool: {"thought": "your reasoning", "next": {"action": {"name": "tool_name", "input": "the tool\'s argument"}}}'] : []),
    ...(hints ? [`Example: {"thought": "${EXAMPLE_THOUGHT}", "next": {"action": {"name": "${input.tools[0]!.name}", "input": "${EXAMPLE_INPUT}"}}}`] : []),
    `To give the final answer: ${answerFormat(positive)} or ${answerFormat(negative)}`,
    ...(hints
      ? [
          `"name" is one of: ${input.tools.map((tool) => tool.name).join(', ')}. One tool call per step: its result comes back as the Observation in the history of the next step. Call a tool while the evidence does not decide the claim.`,
        ]
      : []),
    'Rules: output only the JSON; do not wrap it in markdown code blocks; no text before or after it. When the evidence is sufficient, answer immediately.',
    'Current iteration: this may be your last chance to answer',
    ...(forced ? ['', FORCED_ANSWER_INSTRUCTION] : []),
  ];
  return { system: lines.join('\n'), user: `Continue reasoning about: ${oneLine(input.claim)}` };
}

/** The Background shows a triplet's attributes only when it has some (null is the schema's "none"). */
function withoutNullAttributes(key: string, value: unknown): unknown {
  return key === 'attributes' && value === null ? undefined : value;
}

/** Paper: a separate Memory block in the "Memory and Previous steps' history" slot; code: memory lines at the head of the history. */
function historySlot(input: ExecutorPromptInput, compat: boolean): string[] {
  const memory = input.memory.map(oneLine);
  const history = input.history.map(oneLine);
  if (compat) {
    const all = [...memory, ...history];
    return ["Previous steps' history:", ...(all.length > 0 ? all : [NO_HISTORY])];
  }
  return [
    "Memory and Previous steps' history:",
    'Memory:',
    ...(memory.length > 0 ? memory : ['None.']),
    'History:',
    ...(history.length > 0 ? history : [NO_HISTORY]),
  ];
}

/** Paper mode: each tool with its one argument and its description (§9.6); code: names only. */
function toolsSlot(tools: readonly MermaidToolEntry[], compat: boolean): string[] {
  if (tools.length === 0) return [`${TOOLS_HEADER} none (answer from the memory and your own knowledge)`];
  if (compat) return [`${TOOLS_HEADER} ${tools.map((tool) => tool.name).join(', ')}`];
  return [TOOLS_HEADER, ...tools.map((tool) => `- ${tool.name}(${tool.primaryArgument}): ${oneLine(tool.description)}`), ONE_ARGUMENT_NOTE];
}

/** What a prompt reader (the simulator) can take back out of an executor prompt. */
export interface ExecutorPromptReading {
  claim: string;
  decomposition: MermaidDecomposition | null;
  memory: string[];
  history: string[];
  tools: string[];
  labels: MermaidLabelSet;
  forced: boolean;
}

const HISTORY_LINE = /^(Thought|Action|Observation|Answer): /;
const ANSWER_FORMAT = /"answer": "([^"]+)"\}\}? or \{"thought": "your reasoning", (?:"next": \{)?"answer": "([^"]+)"\}/;
const TOOL_LINE = /^- ([a-z_]+)\(/;

export function parseExecutorPrompt(text: string): ExecutorPromptReading {
  const lines = text.split('\n');
  const background = lines.find((line) => line.startsWith(BACKGROUND_PREFIX));
  const labels = ANSWER_FORMAT.exec(text);
  const toolsLine = lines.find((line) => line.startsWith(TOOLS_HEADER)) ?? '';
  const inlineTools = toolsLine.slice(TOOLS_HEADER.length).trim();
  return {
    claim: parseClaim(text) ?? '',
    decomposition: background ? parseDecomposition(background.slice(BACKGROUND_PREFIX.length)) : null,
    memory: lines.filter((line) => line.startsWith(MEMORY_LINE_PREFIX)),
    history: lines.filter((line) => HISTORY_LINE.test(line)),
    tools:
      inlineTools === ''
        ? lines.flatMap((line) => TOOL_LINE.exec(line)?.[1] ?? [])
        : inlineTools.startsWith('none')
          ? []
          : inlineTools.split(',').map((name) => name.trim()),
    labels: labels ? { positive: labels[1]!, negative: labels[2]! } : { positive: 'True', negative: 'False' },
    forced: text.includes(FORCED_ANSWER_INSTRUCTION),
  };
}

function parseDecomposition(json: string): MermaidDecomposition | null {
  try {
    return JSON.parse(json) as MermaidDecomposition;
  } catch {
    return null;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
