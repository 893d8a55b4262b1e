/**
 * Sandbox-safe settings of the `mermaid` method (workflow input), their defaults and resolution.
 * No imports with runtime effect except sandbox-safe shared constants: workflows import values from here.
 */
import { MEMORY_CODE_COMPAT, type MemoryRecallOptions, type MemoryUpdateOptions } from '../../../shared/memory';
import type { ToolName } from '../../../shared/tools';
import type { MethodSampling } from '../../../shared/sampling';
import type { MermaidReleasedPrompts } from './released-prompts';

/** paper: the paper's Algorithm 1 and the spec's §9 recommendations; code-compat: the released code's behaviours (spec appendix). */
export const MERMAID_FIDELITIES = ['paper', 'code-compat'] as const;
export type MermaidFidelity = (typeof MERMAID_FIDELITIES)[number];

/** on: recall before the loop, update after; frozen: recall only (proxy-memory experiment, §3.3); off: neither. */
export const MERMAID_MEMORY_MODES = ['on', 'off', 'frozen'] as const;
export type MermaidMemoryMode = (typeof MERMAID_MEMORY_MODES)[number];

/** model: one memory per (run, dataset, model, fidelity); run: one per (run, dataset), shared by every model. */
export const MERMAID_MEMORY_SHARINGS = ['model', 'run'] as const;
export type MermaidMemorySharing = (typeof MERMAID_MEMORY_SHARINGS)[number];

/** The answer vocabularies of the released scripts (§9.14): main.py, main_hover.py, main_scifact.py. */
export const MERMAID_LABEL_SETS = {
  'true-false': { positive: 'True', negative: 'False' },
  hover: { positive: 'SUPPORTED', negative: 'NOT_SUPPORTED' },
  scifact: { positive: 'SUPPORT', negative: 'CONTRADICT' },
} as const;
export type MermaidLabelSetName = keyof typeof MERMAID_LABEL_SETS;
export const MERMAID_LABEL_SET_NAMES = Object.keys(MERMAID_LABEL_SETS) as MermaidLabelSetName[];
export interface MermaidLabelSet {
  positive: string;
  negative: string;
}

const WIKIPEDIA_TOOLS: ToolName[] = [
  'search_wikipedia',
  'get_article',
  'get_summary',
  'get_sections',
  'summarize_article_section',
  'extract_key_facts',
  'get_related_topics',
];

/** The MCP servers each released script connects (§2.4, §9.17), as verity tools: Google → web_search, Scholar/arXiv/PubMed → scholar_search. */
export const MERMAID_TOOLSETS = {
  'true-false': [...WIKIPEDIA_TOOLS, 'web_search', 'scholar_search'],
  hover: [...WIKIPEDIA_TOOLS, 'web_search'],
  scifact: [...WIKIPEDIA_TOOLS, 'web_search', 'scholar_search'],
} as const satisfies Record<MermaidLabelSetName, ToolName[]>;

export interface MermaidSettings {
  fidelity: MermaidFidelity;
  /** T_max: executor steps, each with at most one tool call. */
  maxSteps: number;
  /** Run the decomposer (false: the single-agent ablation of Table 3, no background and no memory keys). */
  decompose: boolean;
  memory: MermaidMemoryMode;
  /**
   * Who shares the evidence memory of a run: `model` (default) keeps one memory per model and
   * fidelity, so models verified side by side in a sweep never recall each other's evidence;
   * `run` shares one memory across all of them (spec §9.10's `run:<run>/dataset:<dataset>`).
   */
  memorySharing: MermaidMemorySharing;
  /** Memory namespace; overrides `memorySharing`. Name another run's scope to reuse a frozen memory. */
  memoryScope?: string;
  /** Overrides of the worker's recall defaults (code-compat starts from the released code's). */
  recall?: Partial<MemoryRecallOptions>;
  /**
   * `mode` (when observations are written) is decided here: endOfClaim in the paper fidelity,
   * perCall in code-compat, never the worker's setting. `dedup` and `storeInvalid` override the
   * worker's VERITY_MEMORY_* defaults; `frozen` comes from `memory`.
   */
  update?: Partial<Omit<MemoryUpdateOptions, 'frozen'>>;
  /** false: memory and parametric knowledge only (the proxy-memory experiment with the MCP server disabled). */
  tools: boolean;
  /** Tools offered to the executor; auto: the label set's subset (§2.4). */
  toolset: 'auto' | ToolName[];
  /** auto: from the dataset name (hover, scifact, else True/False). */
  labelSet: 'auto' | MermaidLabelSetName;
  /** Whether the executor is asked for a final answer by LLM at T_max (paper) or the fallback is returned at once (code). */
  forceAnswer: boolean;
  /**
   * verity's tool-use hints in the executor prompt (an example step, the one-call-per-step rule, the tool
   * names and "call a tool while the evidence does not decide the claim"), which neither the paper's
   * prompt (A.2) nor the released code has: off by default, on for small models that otherwise never call a tool.
   */
  toolHints: boolean;
  /** Label when even the forced answer fails (or forceAnswer is off): the code returns "True". */
  fallbackLabel: 'positive' | 'negative';
  /** Models of the two agents; default the verification's model. */
  decomposerModel?: string;
  executorModel?: string;
  /** Sampling of the method's LLM calls (temperature, topP, seed, maxTokens; `roles.<role>` overrides); unset: the worker's. */
  llm?: MethodSampling;
  /**
   * The released code's own prompts and MCP tool names (read from the user's checkout at verification start,
   * setting `releasedPromptsFrom`): main.py's loop is run as it is written (README "Released-prompt mode").
   */
  releasedPrompts?: MermaidReleasedPrompts;
}

export const DEFAULT_MERMAID_SETTINGS: MermaidSettings = {
  fidelity: 'paper',
  maxSteps: 5,
  decompose: true,
  memory: 'on',
  memorySharing: 'model',
  tools: true,
  toolset: 'auto',
  labelSet: 'auto',
  forceAnswer: true,
  toolHints: false,
  fallbackLabel: 'negative',
  update: { mode: 'endOfClaim' },
};

/** What code-compat changes: no forced LLM answer, "True" at T_max, the released memory rules. */
const CODE_COMPAT_SETTINGS: Partial<MermaidSettings> = {
  fidelity: 'code-compat',
  forceAnswer: false,
  fallbackLabel: 'positive',
  recall: { ...MEMORY_CODE_COMPAT.recall },
  update: { mode: MEMORY_CODE_COMPAT.update.mode, dedup: MEMORY_CODE_COMPAT.update.dedup, storeInvalid: MEMORY_CODE_COMPAT.update.storeInvalid },
};

/** The settings a verification runs with: the fidelity's defaults overridden by what the input names. */
export function resolveMermaidSettings(partial: Partial<MermaidSettings> | undefined): MermaidSettings {
  const base = partial?.fidelity === 'code-compat' ? { ...DEFAULT_MERMAID_SETTINGS, ...CODE_COMPAT_SETTINGS } : DEFAULT_MERMAID_SETTINGS;
  return {
    ...base,
    ...partial,
    ...(base.recall || partial?.recall ? { recall: { ...base.recall, ...partial?.recall } } : {}),
    ...(base.update || partial?.update ? { update: { ...base.update, ...partial?.update } } : {}),
  };
}

/** The label set of a verification: named, or chosen by its dataset (HoVer, SciFact, else the LLM-response sets). */
export function mermaidLabelSetName(settings: Pick<MermaidSettings, 'labelSet'>, dataset: string | undefined): MermaidLabelSetName {
  if (settings.labelSet !== 'auto') return settings.labelSet;
  const name = (dataset ?? '').toLowerCase();
  if (name.includes('hover')) return 'hover';
  if (name.includes('scifact')) return 'scifact';
  return 'true-false';
}

/** Tools offered to the executor (before the worker drops those it has not registered). */
export function mermaidToolset(settings: Pick<MermaidSettings, 'tools' | 'toolset'>, labelSet: MermaidLabelSetName): ToolName[] {
  if (!settings.tools) return [];
  return settings.toolset === 'auto' ? [...MERMAID_TOOLSETS[labelSet]] : [...settings.toolset];
}

/**
 * The memory namespace of a verification (same rule as src/memory/scope.ts, which workflows cannot
 * import): the named scope, else `run:<run>/dataset:<dataset>`, per model and fidelity unless
 * `memorySharing` is `run`. `perModel: false` is the rule of histories recorded before it.
 */
export function mermaidMemoryScope(
  settings: Pick<MermaidSettings, 'memoryScope' | 'memorySharing' | 'fidelity' | 'llm'>,
  input: { runId: string; dataset?: string; model?: string },
  options: { perModel?: boolean } = {},
): string {
  if (settings.memoryScope) return settings.memoryScope;
  const perModel = (options.perModel ?? true) && settings.memorySharing !== 'run';
  return [
    `run:${input.runId}`,
    ...(input.dataset ? [`dataset:${input.dataset}`] : []),
    ...(perModel && input.model ? [`model:${scopeSafe(input.model)}`] : []),
    ...(perModel ? [`fidelity:${settings.fidelity}`] : []),
    // Each repeat of a sweep with `repeats` is its own run of the method: its own memory.
    ...(settings.llm?.repeat ? [`repeat:${settings.llm.repeat}`] : []),
  ].join('/');
}

/** A model id as a scope segment: characters outside the scope alphabet become "-", at most 80 of them. */
export function scopeSafe(part: string): string {
  return part.replace(/[^A-Za-z0-9._:/-]/g, '-').slice(0, 80);
}
