import { z } from 'zod';
import { defineTask, type LlmTaskDefinition } from '../../llm/task-registry';
import { MERMAID_RELEASED_MAX_TOKENS, releasedReactUserMessage, renderReleasedReact } from './sandbox/released-prompts';

const textAnswer = z.object({ text: z.string() });

/**
 * MERMAID's two agents with the released code's own prompts (settings `releasedPrompts`, read from the
 * user's checkout): the text comes in with the variables, is rendered as main.py does, sent without
 * response_format at its max_completion_tokens, and the answer is the raw text main.py parses.
 */
export const mermaidReleasedDecomposeTask = defineTask({
  id: 'mermaid.released.decompose',
  version: '1',
  role: 'decomposer',
  schemaName: 'mermaid_released_decompose',
  maxTokens: MERMAID_RELEASED_MAX_TOKENS,
  answer: 'text',
  variables: z.object({ template: z.string().min(1), claim: z.string().min(1) }),
  output: textAnswer,
  render: ({ template, claim }) => [
    { role: 'system', content: template },
    { role: 'user', content: claim },
  ],
});

export const mermaidReleasedReactTask = defineTask({
  id: 'mermaid.released.react',
  version: '1',
  role: 'executor',
  schemaName: 'mermaid_released_react',
  maxTokens: MERMAID_RELEASED_MAX_TOKENS,
  answer: 'text',
  // `background` is already json.dumps'd: the decomposition's key order is the model's, not the request's canonical one.
  variables: z.object({ template: z.string().min(1), claim: z.string().min(1), background: z.string(), history: z.array(z.string()), toolNames: z.array(z.string()) }),
  output: textAnswer,
  render: ({ template, ...state }) => [
    { role: 'system', content: renderReleasedReact(template, state) },
    { role: 'user', content: releasedReactUserMessage(state.claim) },
  ],
});

export const mermaidReleasedTasks = [mermaidReleasedDecomposeTask, mermaidReleasedReactTask] as unknown as LlmTaskDefinition[];
