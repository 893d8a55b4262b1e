/**
 * Sandbox-safe settings of the `tool-mad` method (workflow input), their defaults and resolution.
 * No imports with runtime effect: workflows import values from here.
 */
import type { RetrievalMode } from '../../../shared/retrieval';
import type { MethodSampling } from '../../../shared/sampling';

/** What a debater retrieves with: the wiki index (RAG), the (recorded) web, or nothing (ablation). */
export const TOOL_MAD_TOOLS = ['rag', 'search', 'vanilla'] as const;
export type ToolMadTool = (typeof TOOL_MAD_TOOLS)[number];

/**
 * The answer vocabulary of the debate prompt (spec §10 #11): `fever` SUPPORTS / REFUTES / NOT ENOUGH
 * INFO, `binary` SUPPORTS / REFUTES (FaVIQ-style), `averitec` the four AVeriTeC labels; `auto`
 * picks by the input's dataset.
 */
export const TOOL_MAD_LABEL_SETS = ['auto', 'fever', 'binary', 'averitec'] as const;
export type ToolMadLabelSetName = (typeof TOOL_MAD_LABEL_SETS)[number];

export interface ToolMadSettings {
  /** The debaters, by tool (paper: one RAG and one search debater). At least two. */
  debaters: ToolMadTool[];
  /** T: rounds before the judge decides. */
  maxRounds: number;
  /** Passages the RAG debater retrieves per round. */
  ragTopK: number;
  /** RAG retrieval mode; absent: the input's rag mode. */
  ragMode?: RetrievalMode;
  /** Web results the search debater reads per round. */
  searchResults: number;
  /** Adaptive query formulation; false is the paper's "w/o QF" ablation (query = claim). */
  queryFormulation: boolean;
  /** Round 1's query: written by the LLM from the claim alone, or the claim verbatim. */
  initialQuery: 'llm' | 'claim';
  /** Gate consensus on faithfulness and answer relevance; false: agreement alone stops ("w/o scoring"). */
  stabilityGate: boolean;
  /** Stop at the first (gated) consensus; false: always debate T rounds, then the judge. */
  earlyStop: boolean;
  /** The judge sees each debater's average scores. */
  judgeSeesScores: boolean;
  faithfulnessThreshold: number;
  relevanceThreshold: number;
  /** Algorithm 1 compares strictly (`>`); the text says "falls below" (`>=`). */
  thresholdComparison: '>' | '>=';
  /**
   * Embedding model of answer relevance (cosine of claim and generated questions); absent: the
   * worker's query embedding model. The 0.8 threshold was set on the paper's model's cosines:
   * calibrate it for another model (src/methods/tool-mad/README.md).
   */
  relevanceEmbeddingModel?: string;
  /** n: questions generated from each answer for answer relevance (one LLM call each, as RAGAS). */
  relevanceQuestions: number;
  /** RAGAS zeroes answer relevance for noncommittal answers; the paper's formula does not. */
  noncommittalPenalty: boolean;
  /** Leave the answer's final label line out of statement extraction. */
  stripLabelLine: boolean;
  labelSet: ToolMadLabelSetName;
  /** Characters of each document shown to the judge. */
  judgeDocumentChars: number;
  /** Sampling of the method's LLM calls (temperature, topP, seed, maxTokens; `roles.<role>` overrides); unset: the worker's. */
  llm?: MethodSampling;
}

export const DEFAULT_TOOL_MAD_SETTINGS: ToolMadSettings = {
  debaters: ['rag', 'search'],
  maxRounds: 3,
  ragTopK: 3,
  searchResults: 3,
  queryFormulation: true,
  initialQuery: 'llm',
  stabilityGate: true,
  earlyStop: true,
  judgeSeesScores: true,
  faithfulnessThreshold: 0.7,
  relevanceThreshold: 0.8,
  thresholdComparison: '>',
  relevanceQuestions: 3,
  noncommittalPenalty: false,
  stripLabelLine: true,
  labelSet: 'auto',
  judgeDocumentChars: 1500,
};

export const MAX_TOOL_MAD_DEBATERS = 4;
export const MAX_TOOL_MAD_ROUNDS = 10;

/** The settings a verification runs with: the defaults overridden by what the input names. */
export function resolveToolMadSettings(partial: Partial<ToolMadSettings> | undefined): ToolMadSettings {
  return { ...DEFAULT_TOOL_MAD_SETTINGS, ...partial };
}

/** A one-line problem with resolved settings, or null (inputs can bypass the CLI's schema). */
export function findToolMadSettingsProblem(settings: ToolMadSettings): string | null {
  const { debaters, maxRounds, relevanceQuestions } = settings;
  if (!Array.isArray(debaters) || debaters.length < 2 || debaters.length > MAX_TOOL_MAD_DEBATERS) {
    return `tool-mad needs 2 to ${MAX_TOOL_MAD_DEBATERS} debaters, got ${JSON.stringify(debaters)}`;
  }
  const unknown = debaters.find((tool) => !(TOOL_MAD_TOOLS as readonly string[]).includes(tool));
  if (unknown !== undefined) return `unknown debater tool "${String(unknown)}"; known: ${TOOL_MAD_TOOLS.join(', ')}`;
  if (!Number.isInteger(maxRounds) || maxRounds < 1 || maxRounds > MAX_TOOL_MAD_ROUNDS) return `maxRounds must be 1..${MAX_TOOL_MAD_ROUNDS}, got ${maxRounds}`;
  if (!Number.isInteger(relevanceQuestions) || relevanceQuestions < 1) return `relevanceQuestions must be a positive integer, got ${relevanceQuestions}`;
  return null;
}

/** Debater ids name their tool and, for repeated tools (RAG + RAG), their position: `rag`, `rag-2`. */
export function debaterIds(tools: readonly ToolMadTool[]): string[] {
  return tools.map((tool, i) => (tools.indexOf(tool) === i ? tool : `${tool}-${tools.slice(0, i + 1).filter((t) => t === tool).length}`));
}
