import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../src/methods/tasks';
import { getTask } from '../../src/llm/task-registry';
import { projectRoot } from '../../src/project-root';

/*
 * Tool-MAD and ToE released no code, so their parity is with the prompts as the specs record them
 * (../shared/specs/tool-mad.md §8, toe.md §8 P1–P7). Each clause below is one thing the spec says a
 * prompt contains; every prompt is rendered for the paper's own example claim, each clause is checked
 * on it, and the clauses that do not hold must be exactly the deviations the method README's parity
 * table lists (issue 37, 13).
 */

interface Clause {
  id: string;
  spec: string;
  holds: (text: string) => boolean;
}

function rendered(taskId: string, variables: unknown): { system: string; user: string; all: string } {
  const messages = getTask(taskId).render(variables);
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
  const user = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  return { system, user, all: `${system}\n${user}` };
}

const inOrder = (text: string, parts: readonly string[]) => parts.every((part, i) => i === 0 || text.indexOf(parts[i - 1]!) < text.indexOf(part)) && parts.every((part) => text.includes(part));

function deviationsInReadme(readme: string): string[] {
  const section = readme.split('## Prompt parity')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((match) => match[1]!);
}

function failing(clauses: readonly Clause[]): string[] {
  return clauses.filter((clause) => !clause.holds('')).map((clause) => clause.id);
}

// Tool-MAD's case study (paper §V): the Trinidad and Tobago Guardian ownership claim.
const TOOL_MAD_CLAIM = 'The Trinidad and Tobago Guardian is owned by ANSA McAL.';
const OTHER = [{ debater: 'search', answer: 'Guardian Media Limited publishes it.\n**SUPPORTS**' }];
const DOCUMENTS = [{ id: 'd1', title: 'Trinidad and Tobago Guardian', text: 'The newspaper is published by Guardian Media Limited, a subsidiary of ANSA McAL.' }];
const LABELS = ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'];

const query1 = rendered('tool-mad.query', { tool: 'rag', claim: TOOL_MAD_CLAIM });
const queryN = rendered('tool-mad.query', { tool: 'rag', claim: TOOL_MAD_CLAIM, previousQuery: 'Trinidad and Tobago Guardian ownership history', otherAnswers: OTHER });
const answer1 = rendered('tool-mad.answer', { tool: 'rag', claim: TOOL_MAD_CLAIM, labels: LABELS, documents: DOCUMENTS });
const answerN = rendered('tool-mad.answer', { tool: 'rag', claim: TOOL_MAD_CLAIM, labels: LABELS, documents: DOCUMENTS, otherAnswers: OTHER });
const judge = rendered('tool-mad.judge', {
  claim: TOOL_MAD_CLAIM,
  labels: LABELS,
  rounds: [{ round: 1, turns: [{ debater: 'rag', tool: 'rag', query: 'Guardian ownership', documents: DOCUMENTS, answer: 'Owned by GML.\n**SUPPORTS**' }, { debater: 'search', tool: 'search', query: 'Guardian owner', documents: [], answer: 'Unclear.\n**NOT ENOUGH INFO**' }] }],
  scores: [{ debater: 'rag', faithfulness: 0.8, answerRelevance: 0.9 }, { debater: 'search', faithfulness: 0.6, answerRelevance: 0.85 }],
});

// §8.4's metric prompts (RAGAS) on the same case: one debater's answer, its documents, its statements.
const ANSWER = 'The Guardian is published by Guardian Media Limited, a subsidiary of ANSA McAL.\n**SUPPORTS**';
const STATEMENTS = ['The Guardian is published by Guardian Media Limited.', 'Guardian Media Limited is a subsidiary of ANSA McAL.'];
const statements = rendered('tool-mad.statements', { claim: TOOL_MAD_CLAIM, answer: ANSWER });
const nli = rendered('tool-mad.verify-statements', { documents: DOCUMENTS, statements: STATEMENTS });
const question = rendered('tool-mad.question', { answer: ANSWER, index: 1, count: 3 });

const TOOL_MAD_CLAUSES: Clause[] = [
  { id: 'query-role', spec: '§8.1: a debater in a fact-checking debate, shared goal a consensus on the accurate answer, "an agent utilizing RAG"', holds: () => /fact-checking debate/.test(query1.system) && /consensus/.test(query1.system) && /utilizing RAG/.test(query1.system) },
  { id: 'query-step', spec: '§8.1: the query-selection step; it may change its query or keep using it', holds: () => /query-selection step/.test(query1.system) && /change your query or keep using it/.test(query1.system) },
  { id: 'query-brackets', spec: '§8.1: only the query, in square brackets, nothing else', holds: () => query1.system.includes('[your query here]') && /Nothing else/.test(query1.system) },
  { id: 'query-slot-order', spec: '§8.1: slots Other debaters answer, Before you used query, Claim, in that order', holds: () => inOrder(queryN.user, ['Guardian Media Limited publishes it.', 'Trinidad and Tobago Guardian ownership history', TOOL_MAD_CLAIM]) },
  { id: 'query-round-1', spec: '§8.1: round 1 is the same prompt without the first two slots', holds: () => !/Before you used query/.test(query1.user) && !/Other debater/.test(query1.user) && query1.system === queryN.system },
  { id: 'slot-labels', spec: '§8.1–8.2: slot labels written "Claim : ", "Other debaters answer : ", "Before you used query : ", "Document : "', holds: () => queryN.user.includes('Claim : ') && queryN.user.includes('Other debaters answer : ') && answerN.user.includes('Document : ') },
  { id: 'json-reply', spec: '§8: plain-text replies (the query in brackets, the label on the last line)', holds: () => !/Reply only with JSON/.test(query1.all) && !/Reply only with JSON/.test(answer1.all) },
  { id: 'answer-branches', spec: '§8.2: correct → explain, **SUPPORTS**; incorrect → **REFUTES**; unclear or inconsistent → **NOT ENOUGH INFO**', holds: () => LABELS.every((label) => answer1.system.includes(`**${label}**`)) && /unclear or inconsistent/.test(answer1.system) && /based on the documents/.test(answer1.system) },
  { id: 'answer-last-line', spec: '§8.2: the final answer on the last line only, after the reasoning', holds: () => /Reason first\. Put the final answer alone on the last line/.test(answer1.system) },
  { id: 'answer-slot-order', spec: '§8.2: slots Claim, Other debaters answer, Document, in that order', holds: () => inOrder(answerN.user, [TOOL_MAD_CLAIM, 'Guardian Media Limited publishes it.', 'a subsidiary of ANSA McAL']) },
  { id: 'answer-round-1', spec: '§8.2: round 1 is the same template without the other debaters\' answer', holds: () => !/Other debater/.test(answer1.user) && answer1.system === answerN.system },
  { id: 'answer-role', spec: '§8.2: a role preamble as in 8.1 (recommended; the transcription starts at the instructions)', holds: () => /fact-checking debate/.test(answer1.system) },
  { id: 'answer-options-line', spec: '§8.2: no list of the allowed labels besides the three branches', holds: () => !/Final answer options:/.test(answer1.system) },
  { id: 'judge-opening', spec: '§8.3: the judge of the fact-checking debate, the final round, determine the correct answer without a consensus', holds: () => /judge of a fact-checking debate/.test(judge.system) && /final round/.test(judge.system) && /determine the correct answer/.test(judge.system) },
  { id: 'judge-scores', spec: '§8.3 (completion): faithfulness and answer relevance explained, each agent\'s averages over the rounds', holds: () => /faithfulness \(0-1\)/.test(judge.system) && /answer relevance \(0-1\)/.test(judge.system) && judge.user.includes('- rag: faithfulness 0.80, answer relevance 0.90') },
  { id: 'judge-history', spec: '§8.3 (completion): the claim and every round\'s queries, documents and answers', holds: () => inOrder(judge.user, [TOOL_MAD_CLAIM, 'Round 1', 'query: Guardian ownership', 'a subsidiary of ANSA McAL', 'Owned by GML.']) },
  { id: 'judge-last-line', spec: '§8.3 (completion): one of the three labels on the last line, as in 8.2', holds: () => /alone on the last line/.test(judge.system) && LABELS.every((label) => judge.system.includes(`**${label}**`)) },
  { id: 'metric-statements', spec: '§8.4: statement extraction from (question = claim, answer), standalone statements without pronouns, as a JSON list', holds: () => statements.user.includes(TOOL_MAD_CLAIM) && statements.user.includes('Guardian Media Limited, a subsidiary') && /standalone statements/.test(statements.system) && /no pronouns/.test(statements.system) && /"statements": \[/.test(statements.user) },
  { id: 'metric-nli', spec: '§8.4: NLI over the context (the debater\'s documents) and the numbered statements: a reason and a verdict 1/0 for "directly inferable"', holds: () => nli.user.includes('a subsidiary of ANSA McAL') && STATEMENTS.every((statement, i) => nli.user.includes(`${i + 1}. ${statement}`)) && /directly inferred from the context/.test(nli.system) && /"reason"/.test(nli.user) && /"verdict": 1 \| 0/.test(nli.user) },
  { id: 'metric-question', spec: '§8.4: question generation from the answer, {question, noncommittal}, evasive or vague answers flagged', holds: () => question.user.includes('Guardian Media Limited, a subsidiary') && /"question"/.test(question.user) && /"noncommittal"/.test(question.user) && /evasive, vague/.test(question.system) },
  { id: 'metric-question-answer-only', spec: '§8.4: the question prompt holds the answer alone', holds: () => !/Question \d+ of \d+/.test(question.user) },
];

// ToE's Figure 1 example: the injected claim that Tim Cook has joined OpenAI as CEO.
const TOE_CLAIM = 'Tim Cook has joined OpenAI as its CEO.';
const analysis = rendered('toe.claim-analysis', { claim: TOE_CLAIM });
const plan = rendered('toe.query-plan', { claim: TOE_CLAIM, category: 'technology', locale: 'global' });
const query = rendered('toe.query', { claim: TOE_CLAIM, source: 'wikipedia', family: 'counter', planned: ['OpenAI CEO Sam Altman'], issued: [] });
const clean = rendered('toe.clean', { claim: TOE_CLAIM, chunkId: 'c1', chunk: 'Sam Altman is the CEO of OpenAI. Tim Cook is the CEO of Apple.' });
const assess = rendered('toe.analysis', { claim: TOE_CLAIM, documentId: 'd1', source: 'web', title: 'OpenAI', url: 'https://openai.com/about', statements: ['Sam Altman is the CEO of OpenAI.'] });
const decompose = rendered('toe.decompose', { claim: TOE_CLAIM });
const decomposeWithEvidence = rendered('toe.decompose', { claim: TOE_CLAIM, evidence: { veracity: 0.4, reliability: 0.3, items: [] } });

const TOE_CLAUSES: Clause[] = [
  { id: 'p1-features', spec: 'P1: category (one of 6), locale (one of 3), recent / historical / factual / opinion / prediction', holds: () => ['"category"', '"locale"', '"recent"', '"historical"', '"factual"', '"opinion"', '"prediction"'].every((key) => analysis.system.includes(key)) },
  { id: 'p2-query-kinds', spec: 'P2: three query kinds per node: general background, supporting evidence, counter-evidence', holds: () => ['"background"', '"supporting"', '"counter"'].every((key) => plan.system.includes(key)) && /background/.test(plan.system) && /counter/.test(plan.system) },
  { id: 'p3-source-query', spec: 'P3: one query tailored to the claim for the chosen source', holds: () => /one search query for the named source/.test(query.system) && query.user.includes('wikipedia') },
  { id: 'p4-relevant-statements', spec: 'P4: the statements directly relevant to the claim; an empty list allowed', holds: () => /directly relevant to the claim/.test(clean.system) && /empty list is a valid answer/.test(clean.system) },
  { id: 'p5-fields', spec: 'P5: stance (support/refute/neutral), authoritative, primary, relevance 0-1, credibility 0-1, rationale', holds: () => ['"stance"', '"authoritative"', '"primary"', '"relevance"', '"credibility"', '"rationale"'].every((key) => assess.system.includes(key)) },
  { id: 'p5-metadata', spec: 'P5: from the statements and the document\'s metadata (URL, author)', holds: () => assess.user.includes('URL: https://openai.com/about') && /\bAuthor:/.test(assess.user) },
  { id: 'p5-only-fields', spec: 'P5: no fields or scales beyond those (relevance, credibility, source type left to the model)', holds: () => !/"sourceType"/.test(assess.system) && !/Relevance: 1\.0 =/.test(assess.system) },
  { id: 'p6-judge', spec: 'P6: an LLM judge of soft veracity and reliability (training only)', holds: () => { try { getTask('toe.judge'); return true; } catch { return false; } } },
  { id: 'p7-subclaims', spec: 'P7: 2–4 sub-claims, each on a distinct dimension of the 7, importance weights summing to 1', holds: () => /2 to 4 sub-claims/.test(decompose.system) && /different one\s+of these dimensions/.test(decompose.system) && /sum to 1/.test(decompose.system) },
  { id: 'p7-claim-only', spec: 'P7: the claim alone as input', holds: () => decomposeWithEvidence.user === decompose.user },
  { id: 'json-reply', spec: '§8: JSON outputs as listed (P1–P5, P7)', holds: () => [analysis, plan, query, clean, assess, decompose].every((prompt) => /JSON/.test(prompt.all)) },
];

function readme(method: string): string {
  return fs.readFileSync(path.join(projectRoot(), 'src', 'methods', method, 'README.md'), 'utf8');
}

describe.each([
  ['tool-mad', TOOL_MAD_CLAUSES],
  ['toe', TOE_CLAUSES],
] as const)('%s prompts against its spec, on the paper\'s example (issue 37, 13)', (method, clauses) => {
  it('every clause that does not hold is a deviation in the README\'s parity table, and every listed deviation still deviates', () => {
    const deviations = deviationsInReadme(readme(method));
    expect(deviations.length, `${method}/README.md has no "## Prompt parity" table`).toBeGreaterThan(0);
    expect(failing(clauses).sort()).toEqual(deviations.filter((id) => clauses.some((clause) => clause.id === id)).sort());
    for (const id of deviations) expect(clauses.map((clause) => clause.id), `README deviation ${id} names no clause`).toContain(id);
  });
});
