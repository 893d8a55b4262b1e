/**
 * EMULATE's prompts as its released code renders them (qqqube/EMULATE agents.py), from templates the
 * user's checkout supplies at verification start (settings `releasedPromptsFrom`): the text is never
 * part of verity. Sandbox-safe: workflows import it.
 */
import type { EmulateAgent } from './emulate-settings';

/** The released code's commit whose prompt files and rendering this reproduces. */
export const EMULATE_RELEASED_COMMIT = 'ebd86c829042e64efab2906982575cbc1914bd03';

/** Each agent's prompt file under the checkout's `prompts/`. */
export const EMULATE_RELEASED_PROMPT_FILES: Readonly<Record<EmulateAgent, string>> = {
  initialQuery: 'InitialQueryGen.txt',
  searchRank: 'SearchRank.txt',
  webPageExtractor: 'WebPageExtractor.txt',
  selfContained: 'SelfContainedCheck.txt',
  helpful: 'DetHelpful.txt',
  sufficient: 'SufficientEvidence.txt',
  classifier: 'Classifier.txt',
  additionalQuery: 'AdditionalQueryGen.txt',
};

/** The released code's max_completion_tokens per agent. */
export const EMULATE_RELEASED_MAX_TOKENS: Readonly<Record<EmulateAgent, number>> = {
  initialQuery: 100,
  searchRank: 100,
  webPageExtractor: 2048,
  selfContained: 10,
  helpful: 10,
  sufficient: 10,
  classifier: 10,
  additionalQuery: 100,
};

export interface EmulateReleasedPrompts {
  commit: string;
  templates: Record<EmulateAgent, string>;
}

export interface ReleasedResult {
  title: string;
  link: string;
  content: string;
}

export interface ReleasedRankResult {
  position: number;
  title: string;
  link: string;
  snippet: string;
}

const EMPTY_MEMORY_BANK = 'The set is currently empty.';

/** Python's `str.replace` applied in the code's order: every occurrence, later keys also inside earlier values. */
export function replaceInOrder(template: string, replacements: readonly (readonly [string, string])[]): string {
  return replacements.reduce((text, [key, value]) => text.split(`{{${key}}}`).join(value), template);
}

/** SerperResult.make_into_memory. */
export function releasedMemoryItem(result: ReleasedResult): string {
  return `Title: ${result.title} \nURL: ${result.link} \nContent: ${result.content}`;
}

/** SerperResult.__str__. */
export function releasedRankItem(result: ReleasedRankResult): string {
  return `position: ${result.position} \ntitle: ${result.title} \nlink: ${result.link}\nsnippet: ${result.snippet}`;
}

export function releasedMemoryBank(memory: readonly ReleasedResult[]): string {
  return memory.length > 0 ? memory.map(releasedMemoryItem).join('\n\n') : EMPTY_MEMORY_BANK;
}

/** The variables of a released-prompt call, per agent (what agents.py substitutes, in its order). */
export type ReleasedVariables =
  | { agent: 'initialQuery'; claim: string }
  | { agent: 'searchRank'; query: string; results: ReleasedRankResult[] }
  | { agent: 'webPageExtractor'; url: string; pageText: string }
  | { agent: 'selfContained' | 'helpful'; claim: string; memory: ReleasedResult[]; result: ReleasedResult }
  | { agent: 'sufficient' | 'classifier' | 'additionalQuery'; claim: string; memory: ReleasedResult[] };

/** The user message agents.py sends for `variables`, from the agent's template. */
export function renderReleasedPrompt(template: string, variables: ReleasedVariables): string {
  switch (variables.agent) {
    case 'initialQuery':
      return replaceInOrder(template, [['claim', variables.claim]]);
    case 'searchRank':
      return replaceInOrder(template, [
        ['search_query', variables.query],
        ['results', variables.results.map(releasedRankItem).join('\n')],
      ]);
    case 'webPageExtractor':
      return replaceInOrder(template, [
        ['URL', variables.url],
        ['webpage_text', variables.pageText],
      ]);
    case 'selfContained':
    case 'helpful':
      return replaceInOrder(template, [
        ['claim', variables.claim],
        ['memory_bank', releasedMemoryBank(variables.memory)],
        ['new_result', releasedMemoryItem(variables.result)],
      ]);
    default:
      return replaceInOrder(template, [
        ['claim', variables.claim],
        ['memory_bank', releasedMemoryBank(variables.memory)],
      ]);
  }
}

/** A plain-text answer in the shape the agent's structured task returns, so the workflow reads both alike. */
export function releasedAnswerAsOutput(agent: EmulateAgent, text: string): unknown {
  switch (agent) {
    case 'initialQuery':
    case 'additionalQuery':
      return { queries: [text] };
    case 'searchRank':
      return { ranking: text };
    case 'webPageExtractor':
      return { extractedText: text };
    default:
      return { answer: text };
  }
}
