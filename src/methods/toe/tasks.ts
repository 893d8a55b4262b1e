/**
 * ToE's structured LLM tasks (toe.md §8, P1–P5 and P7; the paper publishes no prompt text, so
 * these are verity's). Claim and evidence are rendered with the shared prompt conventions.
 */
import { z } from 'zod';
import { renderClaim, renderEvidence } from '../../llm/prompt-conventions';
import { defineTask, type LlmTaskDefinition } from '../../llm/task-registry';
import { TOE_CATEGORIES, TOE_DIMENSIONS, TOE_LOCALES } from './sandbox/logic/claim-features';
import { TOE_STANCES } from './sandbox/logic/evidence-item';

/** The allowed values of an enum field, as a prompt shows them: "a" | "b" | "c". */
const oneOf = (values: readonly string[]) => values.map((value) => `"${value}"`).join(' | ');

/** Marks the line naming the source of a document (read back by the simulator). */
export const SOURCE_PREFIX = 'Source: ';
/** Marks the line naming the search source the query is for. */
export const SEARCH_SOURCE_PREFIX = 'Search source: ';

// P1 — claim analyzer
export const toeClaimAnalysisOutput = z.object({
  category: z.enum(TOE_CATEGORIES),
  locale: z.enum(TOE_LOCALES),
  recent: z.boolean(),
  historical: z.boolean(),
  factual: z.boolean(),
  opinion: z.boolean(),
  prediction: z.boolean(),
});
export type ToeClaimAnalysisOutput = z.infer<typeof toeClaimAnalysisOutput>;

export const toeClaimAnalysisTask = defineTask({
  id: 'toe.claim-analysis',
  version: '2',
  role: 'default',
  schemaName: 'toe_claim_analysis',
  maxTokens: 150,
  variables: z.object({ claim: z.string().min(1) }),
  output: toeClaimAnalysisOutput,
  render: ({ claim }) => [
    {
      role: 'system',
      content: [
        'You analyse a claim before it is fact-checked. Give its category',
        `(${TOE_CATEGORIES.join(', ')}), its geographic scope (domestic = one country, the United States by default;`,
        'international = about another country or several; global = no particular place), and whether it is about a',
        'recent event (the last two years), a historical fact, a factual statement, an opinion, or a prediction.',
        `Reply only with JSON: {"category": ${oneOf(TOE_CATEGORIES)}, "locale": ${oneOf(TOE_LOCALES)}, "recent": true | false,`,
        '"historical": true | false, "factual": true | false, "opinion": true | false, "prediction": true | false}',
      ].join(' '),
    },
    { role: 'user', content: renderClaim(claim) },
  ],
});

// P2 — query planner (one call per node)
export const toeQueryPlanOutput = z.object({
  background: z.array(z.string()),
  supporting: z.array(z.string()),
  counter: z.array(z.string()),
});
export type ToeQueryPlanOutput = z.infer<typeof toeQueryPlanOutput>;

export const toeQueryPlanTask = defineTask({
  id: 'toe.query-plan',
  version: '2',
  role: 'executor',
  schemaName: 'toe_query_plan',
  maxTokens: 300,
  variables: z.object({ claim: z.string().min(1), category: z.string(), locale: z.string() }),
  output: toeQueryPlanOutput,
  render: ({ claim, category, locale }) => [
    {
      role: 'system',
      content: [
        'You plan evidence searches for a fact-check. Write 1-2 search queries of each kind: general background on',
        'the topic, queries that would find supporting evidence, and queries that would find counter-evidence',
        '(sources disputing or refuting the claim), so that the search is not one-sided.',
        'Reply only with JSON: {"background": ["..."], "supporting": ["..."], "counter": ["..."]}',
      ].join(' '),
    },
    { role: 'user', content: [renderClaim(claim), `Category: ${category}; scope: ${locale}.`].join('\n') },
  ],
});

// P3 — per-action query writer
// Non-empty, checked by refine: strict schemas do not allow minLength.
export const toeQueryOutput = z.object({ query: z.string().refine((query) => query.length > 0, 'the query is empty') });
export type ToeQueryOutput = z.infer<typeof toeQueryOutput>;

export const toeQueryTask = defineTask({
  id: 'toe.query',
  version: '2',
  role: 'executor',
  schemaName: 'toe_query',
  maxTokens: 100,
  variables: z.object({
    claim: z.string().min(1),
    source: z.string(),
    family: z.string(),
    planned: z.array(z.string()),
    issued: z.array(z.string()),
  }),
  output: toeQueryOutput,
  render: ({ claim, source, family, planned, issued }) => [
    {
      role: 'system',
      content: [
        'You write one search query for the named source, phrased the way that source is best searched, to find evidence about the claim.',
        'Do not repeat a query already issued. Reply only with JSON: {"query": "..."}',
      ].join(' '),
    },
    {
      role: 'user',
      content: [
        renderClaim(claim),
        `${SEARCH_SOURCE_PREFIX}${source}`,
        `Planned ${family} queries: ${planned.join(' | ') || '(none)'}`,
        `Already issued: ${issued.join(' | ') || '(none)'}`,
      ].join('\n'),
    },
  ],
});

// P4 — cleaning (per chunk)
export const toeCleanOutput = z.object({ statements: z.array(z.string()) });
export type ToeCleanOutput = z.infer<typeof toeCleanOutput>;

export const toeCleanTask = defineTask({
  id: 'toe.clean',
  version: '2',
  role: 'executor',
  schemaName: 'toe_clean',
  maxTokens: 600,
  variables: z.object({ claim: z.string().min(1), chunkId: z.string(), chunk: z.string() }),
  output: toeCleanOutput,
  render: ({ claim, chunkId, chunk }) => [
    {
      role: 'system',
      content: [
        'From the document chunk, copy the statements that are directly relevant to the claim (for or against it).',
        'Leave out everything else; an empty list is a valid answer. Reply only with JSON: {"statements": ["..."]}',
      ].join(' '),
    },
    { role: 'user', content: [renderClaim(claim), '', renderEvidence([{ id: chunkId, text: chunk }])].join('\n') },
  ],
});

// P5 — analysis (per document)
export const toeAnalysisOutput = z.object({
  stance: z.enum(TOE_STANCES),
  authoritative: z.boolean(),
  primary: z.boolean(),
  relevance: z.number(),
  credibility: z.number(),
  sourceType: z.string(),
  rationale: z.string(),
});
export type ToeAnalysisOutput = z.infer<typeof toeAnalysisOutput>;

/**
 * The scales of relevance and credibility: both multiply into an item's weight (toe.md §4.3,
 * q = relevance · credibility · …), so the model is given anchors rather than left to guess.
 */
export const TOE_RELEVANCE_RUBRIC = [
  'Relevance: 1.0 = states the claim\'s exact fact (same entities, numbers, dates, place) or its direct negation;',
  '0.7 = about the same event or fact but leaves a detail of the claim open; 0.4 = the same topic or entities,',
  'not the fact the claim states; 0.1 = mentions a term of the claim only in passing; 0 = unrelated.',
].join(' ');
export const TOE_CREDIBILITY_RUBRIC = [
  'Credibility: 1.0 = official or primary record (government or court document, the organisation itself, peer-reviewed',
  'paper, professional fact-check); 0.8 = established news outlet or encyclopedia; 0.5 = secondary or aggregated',
  'source, trade or local outlet, preprint; 0.3 = blog, forum or social-media post by a named person;',
  '0.1 = anonymous, satirical or known-unreliable source.',
].join(' ');

export const toeAnalysisTask = defineTask({
  id: 'toe.analysis',
  version: '3',
  role: 'evaluator',
  schemaName: 'toe_analysis',
  maxTokens: 300,
  variables: z.object({
    claim: z.string().min(1),
    documentId: z.string(),
    source: z.string(),
    title: z.string(),
    url: z.string(),
    statements: z.array(z.string()),
  }),
  output: toeAnalysisOutput,
  render: ({ claim, documentId, source, title, url, statements }) => [
    {
      role: 'system',
      content: [
        'You assess one document as evidence for a claim, from the statements extracted from it and its metadata.',
        'Give its stance (support, refute or neutral), whether it is an official or authoritative source, whether it is',
        'a primary report or a republication of someone else\'s, its relevance to the claim (0-1), its credibility (0-1),',
        'the kind of source (news, encyclopedia, paper, social, forum, fact-check, other) and a one-sentence rationale.',
        TOE_RELEVANCE_RUBRIC,
        TOE_CREDIBILITY_RUBRIC,
        `Reply only with JSON: {"stance": ${oneOf(TOE_STANCES)}, "authoritative": true | false, "primary": true | false,`,
        '"relevance": 0.0 to 1.0, "credibility": 0.0 to 1.0, "sourceType": "news" | "encyclopedia" | "paper" | "social" | "forum" | "fact-check" | "other",',
        '"rationale": "..."}',
      ].join(' '),
    },
    {
      role: 'user',
      content: [
        renderClaim(claim),
        `${SOURCE_PREFIX}${source}`,
        `Title: ${title || '(none)'}; URL: ${url || '(none)'}`,
        '',
        renderEvidence(statements.map((text, i) => ({ id: `${documentId}#s${i + 1}`, text }))),
      ].join('\n'),
    },
  ],
});

// P7 — decomposition
export const toeDecomposeOutput = z.object({
  subclaims: z.array(z.object({ text: z.string(), dimension: z.enum(TOE_DIMENSIONS), importance: z.number() })),
});
export type ToeDecomposeOutput = z.infer<typeof toeDecomposeOutput>;

/** What the node's evidence said, for the decomposer (paper §III-D: a node is split because its evidence is not enough). */
export const toeNodeEvidenceSummary = z.object({
  veracity: z.number(),
  reliability: z.number(),
  items: z.array(z.object({ stance: z.enum(TOE_STANCES), relevance: z.number(), credibility: z.number(), title: z.string(), snippet: z.string() })),
});
export type ToeNodeEvidenceSummary = z.infer<typeof toeNodeEvidenceSummary>;

function renderNodeEvidence(evidence: ToeNodeEvidenceSummary): string {
  const lines = evidence.items.map(
    (item, i) => `${i + 1}. [${item.stance}; relevance ${item.relevance.toFixed(2)}; credibility ${item.credibility.toFixed(2)}] ${item.title}: ${item.snippet}`,
  );
  return [
    `The evidence found so far is not enough for a reliable verdict (veracity ${evidence.veracity.toFixed(2)}, reliability ${evidence.reliability.toFixed(2)}):`,
    ...(lines.length > 0 ? lines : ['(no relevant evidence was found)']),
  ].join('\n');
}

export const toeDecomposeTask = defineTask({
  id: 'toe.decompose',
  version: '3',
  role: 'decomposer',
  schemaName: 'toe_decompose',
  maxTokens: 600,
  variables: z.object({ claim: z.string().min(1), evidence: toeNodeEvidenceSummary.optional() }),
  output: toeDecomposeOutput,
  render: ({ claim, evidence }) => [
    {
      role: 'system',
      content: [
        'Split the claim into 2 to 4 sub-claims that can be checked separately. Each sub-claim targets a different one',
        `of these dimensions: ${TOE_DIMENSIONS.join(', ')}. Give each an importance weight for the claim's truth;`,
        'the weights sum to 1. Each sub-claim must be a full sentence that can be checked on its own.',
        'Aim the sub-claims at what the evidence so far leaves open or disputed, so that they can be checked more easily.',
        `Reply only with JSON: {"subclaims": [{"text": "...", "dimension": ${oneOf(TOE_DIMENSIONS)}, "importance": 0.0 to 1.0}]}`,
      ].join(' '),
    },
    { role: 'user', content: [renderClaim(claim), ...(evidence ? ['', renderNodeEvidence(evidence)] : [])].join('\n') },
  ],
});

/** The `toe` method's structured LLM tasks (registered by src/methods/tasks.ts). */
export const toeTasks: LlmTaskDefinition[] = [
  toeClaimAnalysisTask,
  toeQueryPlanTask,
  toeQueryTask,
  toeCleanTask,
  toeAnalysisTask,
  toeDecomposeTask,
] as unknown as LlmTaskDefinition[];
