import { z } from 'zod';
import { renderClaim, renderEvidence } from '../../llm/prompt-conventions';
import { defineTask, type LlmTaskDefinition } from '../../llm/task-registry';
import { TOOL_MAD_TOOLS } from './sandbox/tool-mad-settings';
import { ANSWER_HEADER, PREVIOUS_QUERY_PREFIX, renderOptions, renderQuoted, renderStatements } from './prompt-format';

/*
 * Tool-MAD's prompts (spec §8): query selection (Fig. 4), the debate answer (Fig. 5), the judge
 * (Fig. 6, completed as §8.3 recommends) and the RAGAS metric prompts (§8.4).
 */

const TOOL_DESCRIPTIONS: Record<(typeof TOOL_MAD_TOOLS)[number], string> = {
  rag: 'RAG (retrieval over a Wikipedia corpus)',
  search: 'Search (a web search engine)',
  vanilla: 'no retrieval tool (your own knowledge only)',
};

/** What each answer label means, for the debate and judge instructions. */
const LABEL_MEANINGS: Record<string, string> = {
  SUPPORTS: 'the claim is correct',
  SUPPORTED: 'the claim is correct',
  REFUTES: 'the claim is incorrect',
  REFUTED: 'the claim is incorrect',
  'NOT ENOUGH INFO': 'the evidence is unclear or inconsistent, so the claim can be neither confirmed nor refuted',
  'NOT ENOUGH EVIDENCE': 'the evidence is unclear or insufficient, so the claim can be neither confirmed nor refuted',
  'CONFLICTING EVIDENCE/CHERRYPICKING': 'the evidence conflicts, or the claim is technically true but misleadingly cherry-picked',
};

const tool = z.enum(TOOL_MAD_TOOLS);
const document = z.object({ id: z.string(), title: z.string(), text: z.string() });
const otherAnswer = z.object({ debater: z.string(), answer: z.string() });

function debatePreamble(toolName: z.infer<typeof tool>): string {
  return [
    `You are a debater in a fact-checking debate, an agent utilizing ${TOOL_DESCRIPTIONS[toolName]}.`,
    'All debaters share one goal: to reach a consensus on the accurate answer.',
  ].join(' ');
}

function labelInstructions(labels: readonly string[]): string {
  const branches = labels.map((label) => `- If ${LABEL_MEANINGS[label] ?? `the answer is ${label}`}: explain why, then write **${label}**.`);
  return [
    'Decide about the claim based on the documents.',
    ...branches,
    'Reason first. Put the final answer alone on the last line, and nothing after it.',
    renderOptions(labels),
  ].join('\n');
}

/** The debate answer and the verdict: the reasoning and the final label in one field. */
const ANSWER_REPLY = 'Reply only with JSON: {"answer": "your reasoning, then the final answer alone on the last line"}';

function renderOthers(others: readonly z.infer<typeof otherAnswer>[] | undefined): string[] {
  return (others ?? []).flatMap((other) => [renderQuoted(`Other debater's answer (${other.debater}):`, other.answer), '']);
}

function renderDocuments(documents: readonly z.infer<typeof document>[]): string {
  return renderEvidence(documents.map((d) => ({ id: d.id, text: d.title ? `${d.title}: ${d.text}` : d.text })));
}

export const toolMadQueryVariables = z.object({
  tool,
  claim: z.string().min(1),
  previousQuery: z.string().optional(),
  otherAnswers: z.array(otherAnswer).optional(),
});
export const toolMadQueryOutput = z.object({ query: z.string() });
export type ToolMadQueryOutput = z.infer<typeof toolMadQueryOutput>;

/** Adaptive query formulation: claim + own previous query + the others' previous answers. */
export const toolMadQueryTask = defineTask({
  id: 'tool-mad.query',
  version: '2',
  role: 'debater',
  schemaName: 'tool_mad_query',
  maxTokens: 150,
  variables: toolMadQueryVariables,
  output: toolMadQueryOutput,
  render: ({ tool: toolName, claim, previousQuery, otherAnswers }) => [
    {
      role: 'system',
      content: [
        debatePreamble(toolName),
        'This is the query-selection step: write the query you will retrieve documents with. You may change your query or keep using it.',
        'Write only the query, wrapped in square brackets: [your query here]. Nothing else.',
        'Reply only with JSON: {"query": "[your query here]"}',
      ].join('\n'),
    },
    {
      role: 'user',
      content: [...renderOthers(otherAnswers), ...(previousQuery ? [`${PREVIOUS_QUERY_PREFIX}${previousQuery}`] : []), renderClaim(claim)].join('\n'),
    },
  ],
});

export const toolMadAnswerVariables = z.object({
  tool,
  claim: z.string().min(1),
  labels: z.array(z.string()).min(2),
  documents: z.array(document),
  otherAnswers: z.array(otherAnswer).optional(),
});
export const toolMadAnswerOutput = z.object({ answer: z.string() });
export type ToolMadAnswerOutput = z.infer<typeof toolMadAnswerOutput>;

/** A debater's answer for one round: reasoning, then the label alone on the last line. */
export const toolMadAnswerTask = defineTask({
  id: 'tool-mad.answer',
  // 3: the claim before the other debaters' answers, as Fig. 5 orders its slots (issue 37).
  version: '3',
  role: 'debater',
  schemaName: 'tool_mad_answer',
  maxTokens: 600,
  variables: toolMadAnswerVariables,
  output: toolMadAnswerOutput,
  render: ({ tool: toolName, claim, labels, documents, otherAnswers }) => [
    { role: 'system', content: [debatePreamble(toolName), labelInstructions(labels)].join('\n') },
    {
      role: 'user',
      // Fig. 5's slot order: Claim, Other debaters answer, Document (spec §8.2).
      content: [
        renderClaim(claim),
        '',
        ...renderOthers(otherAnswers),
        toolName === 'vanilla' ? 'Documents: none (answer from what you know).' : renderDocuments(documents),
        '',
        ANSWER_REPLY,
      ].join('\n'),
    },
  ],
});

export const toolMadStatementsVariables = z.object({ claim: z.string().min(1), answer: z.string().min(1) });
export const toolMadStatementsOutput = z.object({ statements: z.array(z.string()) });
export type ToolMadStatementsOutput = z.infer<typeof toolMadStatementsOutput>;

/** Faithfulness, step 1 (RAGAS statement generation): the answer as standalone statements. */
export const toolMadStatementsTask = defineTask({
  id: 'tool-mad.statements',
  version: '2',
  role: 'evaluator',
  schemaName: 'tool_mad_statements',
  maxTokens: 500,
  variables: toolMadStatementsVariables,
  output: toolMadStatementsOutput,
  render: ({ claim, answer }) => [
    {
      role: 'system',
      content:
        'Given a question and an answer, analyse each sentence of the answer and break it into one or more fully understandable, standalone statements. Use no pronouns.',
    },
    { role: 'user', content: [renderClaim(claim), '', renderQuoted(ANSWER_HEADER, answer), '', 'Reply only with JSON: {"statements": ["..."]}'].join('\n') },
  ],
});

export const toolMadVerifyVariables = z.object({ documents: z.array(document), statements: z.array(z.string()).min(1) });
export const toolMadVerifyOutput = z.object({
  verdicts: z.array(z.object({ statement: z.string(), reason: z.string(), verdict: z.literal([0, 1]) })),
});
export type ToolMadVerifyOutput = z.infer<typeof toolMadVerifyOutput>;

/** Faithfulness, step 2 (RAGAS NLI): 1 if the documents directly imply the statement, else 0. */
export const toolMadVerifyTask = defineTask({
  id: 'tool-mad.verify-statements',
  version: '2',
  role: 'evaluator',
  schemaName: 'tool_mad_statement_verdicts',
  maxTokens: 800,
  variables: toolMadVerifyVariables,
  output: toolMadVerifyOutput,
  render: ({ documents, statements }) => [
    {
      role: 'system',
      content:
        'Judge the faithfulness of statements to a context. For each statement, give a short reason, then verdict 1 if the statement can be directly inferred from the context and 0 if it cannot. Keep the statements in order.',
    },
    {
      role: 'user',
      content: [renderDocuments(documents), '', renderStatements(statements), '', 'Reply only with JSON: {"verdicts": [{"statement": "...", "reason": "...", "verdict": 1 | 0}]}'].join('\n'),
    },
  ],
});

export const toolMadQuestionVariables = z.object({ answer: z.string().min(1), index: z.number().int().min(1), count: z.number().int().min(1) });
// 0 or 1 (RAGAS): an enum keeps constrained decoding to the two values.
export const toolMadQuestionOutput = z.object({ question: z.string(), noncommittal: z.literal([0, 1]) });
export type ToolMadQuestionOutput = z.infer<typeof toolMadQuestionOutput>;

/**
 * Answer relevance (RAGAS): a question the answer responds to, and whether the answer is
 * noncommittal. One call per question; the number in the prompt keeps the n requests distinct
 * (at temperature 0 and with the request cache they would otherwise be one).
 */
export const toolMadQuestionTask = defineTask({
  id: 'tool-mad.question',
  version: '2',
  role: 'evaluator',
  schemaName: 'tool_mad_question',
  maxTokens: 200,
  variables: toolMadQuestionVariables,
  output: toolMadQuestionOutput,
  render: ({ answer, index, count }) => [
    {
      role: 'system',
      content: [
        'Generate a question for the given answer: the question the answer responds to.',
        'Also say whether the answer is noncommittal: 1 if it is evasive, vague or ambiguous (e.g. "I don\'t know", "the evidence is unclear"), else 0.',
      ].join(' '),
    },
    {
      role: 'user',
      content: [
        `Question ${index} of ${count}: phrase it independently of any other question you may write for this answer.`,
        '',
        renderQuoted(ANSWER_HEADER, answer),
        '',
        'Reply only with JSON: {"question": "...", "noncommittal": 1 | 0}',
      ].join('\n'),
    },
  ],
});

const judgeTurn = z.object({ debater: z.string(), tool, query: z.string().nullable(), documents: z.array(document), answer: z.string() });
export const toolMadJudgeVariables = z.object({
  claim: z.string().min(1),
  labels: z.array(z.string()).min(2),
  rounds: z.array(z.object({ round: z.number().int(), turns: z.array(judgeTurn) })).min(1),
  scores: z
    .array(z.object({ debater: z.string(), faithfulness: z.number().nullable(), answerRelevance: z.number().nullable() }))
    .optional(),
});
export const toolMadJudgeOutput = z.object({ answer: z.string() });
export type ToolMadJudgeOutput = z.infer<typeof toolMadJudgeOutput>;

const score = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));

/** The judge (spec §8.3): the claim, every round's queries, documents and answers, and the mean scores. */
export const toolMadJudgeTask = defineTask({
  id: 'tool-mad.judge',
  version: '2',
  role: 'judge',
  schemaName: 'tool_mad_judge',
  maxTokens: 600,
  variables: toolMadJudgeVariables,
  output: toolMadJudgeOutput,
  render: ({ claim, labels, rounds, scores }) => [
    {
      role: 'system',
      content: [
        'You are the judge of a fact-checking debate. This is the final round: the debaters did not reach a reliable consensus, so you must determine the correct answer.',
        ...(scores
          ? [
              'Each debater has a stability score: faithfulness (0-1), how well its answers are grounded in the documents it retrieved, and answer relevance (0-1), how directly its answers address the claim. Both are averages over the rounds.',
            ]
          : []),
        `Weigh the quality of each debater's evidence${scores ? ' and its scores' : ''}, reason, and then answer.`,
        labelInstructions(labels),
      ].join('\n'),
    },
    {
      role: 'user',
      content: [
        renderClaim(claim),
        '',
        ...(scores
          ? [
              'Stability scores (means over the rounds):',
              ...scores.map((s) => `- ${s.debater}: faithfulness ${score(s.faithfulness)}, answer relevance ${score(s.answerRelevance)}`),
              '',
            ]
          : []),
        ...rounds.flatMap((round) => [
          `Round ${round.round}`,
          ...round.turns.flatMap((turn) => [
            `Debater ${turn.debater} (${TOOL_DESCRIPTIONS[turn.tool]})${turn.query ? `, query: ${turn.query.replace(/\s+/g, ' ')}` : ''}`,
            ...(turn.documents.length > 0 ? [renderDocuments(turn.documents)] : ['Documents: none']),
            renderQuoted(`Answer of ${turn.debater}:`, turn.answer),
            '',
          ]),
        ]),
        ANSWER_REPLY,
      ].join('\n'),
    },
  ],
});

/** The `tool-mad` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const toolMadTasks: LlmTaskDefinition[] = [
  toolMadQueryTask,
  toolMadAnswerTask,
  toolMadStatementsTask,
  toolMadVerifyTask,
  toolMadQuestionTask,
  toolMadJudgeTask,
] as unknown as LlmTaskDefinition[];
