/**
 * MERMAID's prompts and executor protocol as its released main.py runs them (CheckAgent.decompose,
 * react_loop, _extract_keywords), from the prompt text the user's checkout supplies at verification
 * start (settings `releasedPromptsFrom`): the text is never part of verity. Sandbox-safe.
 */
import type { ToolName } from '../../../shared/tools';
import { extractJsonFromText } from './released-json';
import { pythonFormat, pythonPrefix, pythonStr, pythonStrip, pythonTruthy } from './python-text';

/** The released code's commit whose prompts and loop this reproduces (CYP0630/MERMAID-For-Reviwe-Phase). */
export const MERMAID_RELEASED_COMMIT = '1656b48bcae7e11dca18a252d448bf08e3c49751';
export const MERMAID_RELEASED_REPOSITORY = 'CYP0630/MERMAID-For-Reviwe-Phase';
/** The MCP servers main.py connects for its True/False datasets, in its order (tool names are listed in it). */
export const MERMAID_RELEASED_SERVERS = ['src/server/search_tool.py', 'src/server/wikipedia_tool.py', 'src/server/googlescholar_tool.py'] as const;

/** OpenAIBackend.chat's max_completion_tokens, for both agents. */
export const MERMAID_RELEASED_MAX_TOKENS = 15000;
/** CheckAgent.max_react_cycles: after it, "True" without an LLM call. */
export const MERMAID_RELEASED_MAX_CYCLES = 5;
export const MERMAID_RELEASED_TIMEOUT_ANSWER = 'True';
/** Observation characters kept in the history; memory evidence is cut at the same length. */
export const MERMAID_RELEASED_OBSERVATION_CHARS = 2000;
/** EvidenceMemory.retrieve's top_k in react_loop. */
export const MERMAID_RELEASED_MEMORY_TOP_K = 3;
/** Characters of an unparsable reply kept as its Thought. */
const UNPARSABLE_CHARS = 1000;
const NO_HISTORY = 'None yet.';

export interface MermaidReleasedPrompts {
  commit: string;
  /** Decomp_SYSTEM_PROMPT. */
  decompose: string;
  /** ReAct_SYSTEM_PROMPT (a str.format template). */
  react: string;
  /** The MCP tool names in the order main.py registers them (its `Available tools`). */
  toolNames: string[];
}

/** react_loop's tool_mapping: what the model may call a tool, as the released name. */
export const RELEASED_TOOL_MAPPING: Readonly<Record<string, string>> = {
  wikipedia: 'search_wikipedia',
  google: 'search_google',
  search_wikipedia: 'search_wikipedia',
  search_google: 'search_google',
};

/**
 * The verity tool that answers each released MCP tool. The Wikipedia server's tools have verity
 * namesakes; summarize_article_for_query has none and goes to extract_key_facts (its nearest: the
 * article's sentences about a topic). Every call sends `{"query": input}` as the code does.
 */
export const RELEASED_TOOL_TARGETS: Readonly<Record<string, ToolName>> = {
  search_google: 'web_search',
  search_wikipedia: 'search_wikipedia',
  get_article: 'get_article',
  get_summary: 'get_summary',
  summarize_article_for_query: 'extract_key_facts',
  summarize_article_section: 'summarize_article_section',
  extract_key_facts: 'extract_key_facts',
  get_related_topics: 'get_related_topics',
  get_sections: 'get_sections',
  search_google_scholar: 'scholar_search',
};

/** The ReAct system prompt of one step: the template with Python's str.format semantics. */
/** `background` is json.dumps of the decomposition (pythonJsonDumps), made where the parsed object's key order is still the model's. */
export function renderReleasedReact(template: string, state: { claim: string; background: string; history: readonly string[]; toolNames: readonly string[] }): string {
  return pythonFormat(template, {
    query: state.claim,
    history: state.history.length > 0 ? state.history.join('\n') : NO_HISTORY,
    tools: state.toolNames.join(', '),
    background: state.background,
  });
}

/** The user turn of every ReAct step. */
export function releasedReactUserMessage(claim: string): string {
  return `Continue reasoning about: ${claim}`;
}

/** _extract_keywords: each triplet's subject and object, lower-cased and stripped, empty ones skipped. */
export function releasedKeywords(decomposition: unknown): string[] {
  const triplets = isRecord(decomposition) && Array.isArray(decomposition.triplets) ? decomposition.triplets : [];
  const keywords: string[] = [];
  for (const triplet of triplets) {
    if (!isRecord(triplet)) continue;
    for (const part of [triplet.subject, triplet.object]) {
      const keyword = typeof part === 'string' ? pythonStrip(part.toLowerCase()) : '';
      if (keyword) keywords.push(keyword);
    }
  }
  return keywords;
}

/** What one ReAct reply makes the loop do, with the history lines it appends (react_loop, in its order). */
export type ReleasedStep =
  | { kind: 'answer'; thought: string; answer: unknown; lines: string[] }
  | { kind: 'tool'; thought: string; tool: string; input: string; lines: string[] }
  | { kind: 'unknownTool'; thought: string; tool: string; lines: string[] }
  | { kind: 'noTool' | 'thought' | 'unparsable' | 'empty'; thought: string; lines: string[] };

export function interpretReleasedReply(content: string, claim: string, toolNames: readonly string[]): ReleasedStep {
  if (content === '') return { kind: 'empty', thought: '', lines: [] };
  const parsed = extractJsonFromText(content);
  if (!parsed || !pythonTruthy(parsed.value) || !isRecord(parsed.value)) {
    // A parsed non-object would crash the code (`parsed.get`); verity keeps it as an unparsable thought (README).
    const thought = pythonPrefix(content, UNPARSABLE_CHARS);
    return { kind: 'unparsable', thought, lines: [`Thought: ${thought}`] };
  }
  const reply = parsed.value;
  const thought = 'thought' in reply ? pythonStr(reply.thought) : '';
  const thoughtLine = `Thought: ${thought}`;
  if ('answer' in reply) return { kind: 'answer', thought, answer: reply.answer, lines: [thoughtLine, `Answer: ${pythonStr(reply.answer)}`] };
  if (!('action' in reply)) return { kind: 'thought', thought, lines: [thoughtLine] };
  const action = isRecord(reply.action) ? reply.action : {};
  const name = typeof action.name === 'string' ? action.name.toLowerCase() : '';
  if (name === 'none' || name === '') return { kind: 'noTool', thought, lines: [thoughtLine, 'Action: No tool needed, continuing reasoning.'] };
  const tool = RELEASED_TOOL_MAPPING[name] ?? name;
  if (!toolNames.includes(tool)) {
    return { kind: 'unknownTool', thought, tool: name, lines: [thoughtLine, `Action: Tool '${name}' not found. Available: ${toolNames.join(', ')}`] };
  }
  const input = 'input' in action ? pythonStr(action.input) : claim;
  return { kind: 'tool', thought, tool, input, lines: [thoughtLine] };
}

/** The lines a tool call appends after its Thought: the action and the observation's first 2,000 characters. */
export function releasedToolLines(tool: string, input: string, observation: string): string[] {
  return [`Action: Used ${tool} with input: ${input}`, `Observation: ${pythonPrefix(observation, MERMAID_RELEASED_OBSERVATION_CHARS)}`];
}

/** utils.calculate_metrics.normalize_label: a string is True when it is "true", "1" or "yes" in lower case. */
export function releasedAnswerIsTrue(answer: unknown): boolean {
  if (typeof answer === 'boolean') return answer;
  if (typeof answer === 'string') return ['true', '1', 'yes'].includes(answer.toLowerCase());
  return pythonTruthy(answer);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
