import { z } from 'zod';
import { renderClaim } from '../../llm/prompt-conventions';
import { defineTask, type LlmTaskDefinition } from '../../llm/task-registry';
import type { ChatMessage } from '../../llm/types';
import {
  MEMORY_HEADER,
  NEW_RESULT_HEADER,
  QUERY_PREFIX,
  RANK_RESULTS_HEADER,
  renderMemoryBank,
  renderMemoryItem,
  renderRankList,
} from './prompt-sections';
import { EMULATE_AGENTS, type EmulateAgent } from './sandbox/emulate-settings';
import { EMULATE_RELEASED_MAX_TOKENS, renderReleasedPrompt, type ReleasedVariables } from './sandbox/released-prompts';

/**
 * EMULATE's agents (spec §2, §4): each is one zero-shot `user` message without a system prompt,
 * as in the released code. Answers come back in one JSON field and are read by the workflow
 * (src/methods/emulate/sandbox/emulate-*.ts), leniently or strictly.
 */

const memoryItem = z.object({ title: z.string(), link: z.string(), content: z.string() });
const memory = z.array(memoryItem);

const claimAndMemory = z.object({ claim: z.string().min(1), memory });
const claimMemoryResult = z.object({ claim: z.string().min(1), memory, result: memoryItem });
const queryGeneration = z.object({ claim: z.string().min(1), memory, count: z.number().int().min(1).max(5) });

export const emulateQueriesOutput = z.object({ queries: z.array(z.string()).min(1) });
export const emulateRankingOutput = z.object({ ranking: z.string() });
export const emulateAnswerOutput = z.object({ answer: z.string() });
export const emulateExtractOutput = z.object({ extractedText: z.string() });

export type EmulateQueriesOutput = z.infer<typeof emulateQueriesOutput>;
export type EmulateRankingOutput = z.infer<typeof emulateRankingOutput>;
export type EmulateAnswerOutput = z.infer<typeof emulateAnswerOutput>;
export type EmulateExtractOutput = z.infer<typeof emulateExtractOutput>;

export const EMULATE_SCHEMA_NAMES = {
  initialQuery: 'emulate_initial_query',
  searchRank: 'emulate_search_rank',
  webPageExtractor: 'emulate_page_extract',
  selfContained: 'emulate_self_contained',
  helpful: 'emulate_helpful',
  sufficient: 'emulate_sufficient',
  classifier: 'emulate_classify',
  additionalQuery: 'emulate_additional_query',
} as const;

const user = (...lines: string[]): ChatMessage[] => [{ role: 'user', content: lines.join('\n') }];

function preamble(claim: string, items: z.infer<typeof memory>): string[] {
  return [
    'Your task is to determine if the following claim is true or false.',
    renderClaim(claim),
    '',
    'So far, you have collected the following set of search results. Each search result has a title, a URL and the content on the webpage.',
    MEMORY_HEADER,
    renderMemoryBank(items),
    '',
  ];
}

const newResult = (result: z.infer<typeof memoryItem>) => ['Here is a new search result.', NEW_RESULT_HEADER, renderMemoryItem(result), ''];

const queryWording = (count: number) => (count === 1 ? 'one Google search query' : `${count} Google search queries`);

export const emulateInitialQueryTask = defineTask({
  id: 'emulate.initialQuery',
  version: '2',
  role: 'default',
  schemaName: EMULATE_SCHEMA_NAMES.initialQuery,
  maxTokens: 300,
  variables: z.object({ claim: z.string().min(1), count: z.number().int().min(1).max(5) }),
  output: emulateQueriesOutput,
  render: ({ claim, count }) =>
    user(
      renderClaim(claim),
      '',
      'You need to determine whether this claim is true or false.',
      `Write ${queryWording(count)} that would help you decide.`,
      'Just output the query and nothing else, as JSON: {"queries": ["..."]}',
    ),
});

export const emulateSearchRankTask = defineTask({
  id: 'emulate.searchRank',
  version: '2',
  role: 'default',
  schemaName: EMULATE_SCHEMA_NAMES.searchRank,
  maxTokens: 200,
  variables: z.object({
    query: z.string(),
    results: z.array(z.object({ position: z.number().int(), title: z.string(), link: z.string(), snippet: z.string() })),
  }),
  output: emulateRankingOutput,
  render: ({ query, results }) =>
    user(
      'The following search query was submitted to a search engine:',
      `${QUERY_PREFIX}${query}`,
      '',
      'The search engine returned these results:',
      RANK_RESULTS_HEADER,
      renderRankList(results),
      '',
      'Rank the results by their credibility and their relevance to the original query. Judge credibility from the URL,',
      'and relevance from the title and snippet. Refer to each result by its position. Results at the beginning of the',
      'list should be the most credible and relevant.',
      'Just output the list of positions and nothing else, as JSON: {"ranking": "<position 1> | <position 2> | ..."}',
    ),
});

export const emulateWebPageExtractorTask = defineTask({
  id: 'emulate.webPageExtractor',
  version: '2',
  role: 'default',
  schemaName: EMULATE_SCHEMA_NAMES.webPageExtractor,
  maxTokens: 1536,
  variables: z.object({ url: z.string(), pageText: z.string() }),
  output: emulateExtractOutput,
  render: ({ url, pageText }) =>
    user(
      `The following text comes from visiting ${url} and converting the page to plain text.`,
      'Output only the important parts of the text that someone visiting the website would most likely read and focus on,',
      'in their original order, as JSON: {"extractedText": "..."}',
      '',
      pageText,
    ),
});

export const emulateSelfContainedTask = defineTask({
  id: 'emulate.selfContained',
  version: '2',
  role: 'default',
  schemaName: EMULATE_SCHEMA_NAMES.selfContained,
  maxTokens: 150,
  variables: claimMemoryResult,
  output: emulateAnswerOutput,
  render: ({ claim, memory: items, result }) =>
    user(
      ...preamble(claim, items),
      ...newResult(result),
      'Decide whether the content of the new search result can be comprehended. Look only at the parts that could help',
      'judge the claim. It can be comprehended if (1) it is self-contained, or (2) it is not self-contained but can be',
      'understood together with the search results collected so far.',
      'Just output either Yes or No, as JSON: {"answer": "Yes" | "No"}',
    ),
});

export const emulateHelpfulTask = defineTask({
  id: 'emulate.helpful',
  version: '2',
  role: 'default',
  schemaName: EMULATE_SCHEMA_NAMES.helpful,
  maxTokens: 150,
  variables: claimMemoryResult,
  output: emulateAnswerOutput,
  render: ({ claim, memory: items, result }) =>
    user(
      ...preamble(claim, items),
      ...newResult(result),
      'Decide whether the content of the new search result helps determine whether the claim is true or false.',
      'Helpful content gives new information that is not already in the collected search results.',
      'Just output either Yes or No, as JSON: {"answer": "Yes" | "No"}',
    ),
});

export const emulateSufficientTask = defineTask({
  id: 'emulate.sufficient',
  version: '2',
  role: 'default',
  schemaName: EMULATE_SCHEMA_NAMES.sufficient,
  maxTokens: 150,
  variables: claimAndMemory,
  output: emulateAnswerOutput,
  render: ({ claim, memory: items }) =>
    user(
      ...preamble(claim, items),
      'Decide whether there is enough evidence in the collected search results to complete the task, that is, to decide',
      'whether the claim is true or false.',
      'Just output either Yes or No, as JSON: {"answer": "Yes" | "No"}',
    ),
});

export const emulateClassifierTask = defineTask({
  id: 'emulate.classifier',
  version: '2',
  role: 'judge',
  schemaName: EMULATE_SCHEMA_NAMES.classifier,
  maxTokens: 150,
  variables: claimAndMemory,
  output: emulateAnswerOutput,
  render: ({ claim, memory: items }) =>
    user(
      ...preamble(claim, items),
      'Judge whether the claim is true or false based on the search results. If no search results are provided, answer',
      'based on your own knowledge.',
      'Just output either True or False, as JSON: {"answer": "True" | "False"}',
    ),
});

export const emulateAdditionalQueryTask = defineTask({
  id: 'emulate.additionalQuery',
  version: '2',
  role: 'default',
  schemaName: EMULATE_SCHEMA_NAMES.additionalQuery,
  maxTokens: 300,
  variables: queryGeneration,
  output: emulateQueriesOutput,
  render: ({ claim, memory: items, count }) =>
    user(
      ...preamble(claim, items),
      `Write ${queryWording(count)} that add to the existing search results and retrieve the information still missing`,
      'to determine whether the claim is true or false.',
      'Just output the query and nothing else, as JSON: {"queries": ["..."]}',
    ),
});

const releasedVariables: Record<EmulateAgent, z.ZodType<Record<string, unknown>>> = {
  initialQuery: z.object({ claim: z.string().min(1) }),
  searchRank: z.object({ query: z.string(), results: z.array(z.object({ position: z.number().int(), title: z.string(), link: z.string(), snippet: z.string() })) }),
  webPageExtractor: z.object({ url: z.string(), pageText: z.string() }),
  selfContained: claimMemoryResult,
  helpful: claimMemoryResult,
  sufficient: claimAndMemory,
  classifier: claimAndMemory,
  additionalQuery: claimAndMemory,
};

/**
 * The agents with the released code's own prompt templates (settings `releasedPrompts`, read from the
 * user's checkout): the template comes in with the variables, is rendered as agents.py does, and the
 * answer is the raw text, cut at the code's max_completion_tokens.
 */
export const emulateReleasedTasks: LlmTaskDefinition[] = EMULATE_AGENTS.map((agent) =>
  defineTask({
    id: `emulate.released.${agent}`,
    version: '1',
    role: agent === 'classifier' ? 'judge' : 'default',
    schemaName: `emulate_released_${agent}`,
    maxTokens: EMULATE_RELEASED_MAX_TOKENS[agent],
    answer: 'text',
    variables: z.intersection(z.object({ template: z.string().min(1) }), releasedVariables[agent]),
    output: z.object({ text: z.string() }),
    render: ({ template, ...variables }) => [{ role: 'user', content: renderReleasedPrompt(template, { agent, ...variables } as ReleasedVariables) }],
  }),
) as LlmTaskDefinition[];

/** The `emulate` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const emulateTasks: LlmTaskDefinition[] = [
  emulateInitialQueryTask,
  emulateSearchRankTask,
  emulateWebPageExtractorTask,
  emulateSelfContainedTask,
  emulateHelpfulTask,
  emulateSufficientTask,
  emulateClassifierTask,
  emulateAdditionalQueryTask,
  ...emulateReleasedTasks,
] as LlmTaskDefinition[];
