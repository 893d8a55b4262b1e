import type { EvidencePassage } from '../../llm/prompt-conventions';
import {
  ANSWER_HEADER,
  parseOptions,
  parsePreviousQuery,
  parseQuotedBlocks,
  parseStatements,
  QUESTION_NUMBER,
} from './prompt-format';
import { TOOL_MAD_LABEL_SET_TABLE } from './sandbox/tool-mad-labels';
import type { SchemaResponder } from '../../simulator/method-responders';
import type { PromptReading } from '../../simulator/prompt-reader';
import { contentWords } from '../../simulator/text';
import { type SimulatedVerdict, rankPassages, MIN_OVERLAP } from '../../simulator/verdict-heuristic';

/*
 * The simulator's Tool-MAD debaters, metric LLM and judge, deterministic from the prompt:
 * - a debater answers from its own documents (the shared overlap heuristic), quoting the best one,
 *   and defers to another debater's decisive answer when its own documents decide nothing;
 * - later queries add the titles the other debaters cited;
 * - statements are the answer's sentences, supported when their words occur in a document;
 * - generated questions restate the claim the answer names, so relevance is high for answers
 *   about the claim and low otherwise;
 * - the judge decides over every document of the debate.
 */

const QUOTE_WORDS = 30;
const OTHER_ANSWER_HEADING = /^Other debater's answer \((.+)\):$/;

function allText(messages: readonly { content?: unknown }[]): string {
  return messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
}

function trimClaim(claim: string): string {
  return claim.trim().replace(/[.!?]+$/, '');
}

/** The option for a verdict; a set without it (binary NEI) takes its "refuted" option. */
function optionFor(options: readonly string[], verdict: SimulatedVerdict): string {
  const table = Object.values(TOOL_MAD_LABEL_SET_TABLE).flat();
  const verdictOf = (text: string) => table.find((label) => label.text === text)?.verdict;
  return options.find((o) => verdictOf(o) === verdict) ?? options.find((o) => verdictOf(o) === 'REFUTED') ?? options.at(-1) ?? verdict;
}

function verdictOfOption(text: string): SimulatedVerdict | undefined {
  return Object.values(TOOL_MAD_LABEL_SET_TABLE)
    .flat()
    .find((label) => label.text === text)?.verdict;
}

/** The passage's first sentence, at most QUOTE_WORDS words, without its "Title: " prefix. */
function quoteOf(passage: EvidencePassage): string {
  const colon = passage.text.indexOf(': ');
  const body = colon > 0 && colon < 120 ? passage.text.slice(colon + 2) : passage.text;
  const sentence = body.split(/(?<=[.!?])\s+(?=[A-Z])/)[0] ?? body;
  return sentence.split(/\s+/).slice(0, QUOTE_WORDS).join(' ').replace(/["“”]/g, "'").replace(/[.!?]+$/, '');
}

function titleOf(passage: EvidencePassage): string | undefined {
  const colon = passage.text.indexOf(': ');
  return colon > 0 && colon < 120 ? passage.text.slice(0, colon) : undefined;
}

interface OtherAnswer {
  debater: string;
  text: string;
  label: string | undefined;
}

function otherAnswers(text: string): OtherAnswer[] {
  return parseQuotedBlocks(text)
    .map((block) => ({ block, match: OTHER_ANSWER_HEADING.exec(block.heading) }))
    .filter(({ match }) => match !== null)
    .map(({ block, match }) => ({ debater: match![1]!, text: block.text, label: block.text.trim().split('\n').at(-1)?.replace(/\*/g, '').trim() }));
}

function debaterAnswer(reading: PromptReading, messages: readonly { content?: unknown }[]): { answer: string } {
  const text = allText(messages);
  const options = parseOptions(text);
  const claim = trimClaim(reading.claim);
  const decision = reading.decision;
  const best = decision.bestPassage;
  if (decision.label !== 'NEI' && best) {
    const because = decision.label === 'SUPPORTED' ? 'This confirms the claim that' : 'This contradicts the claim that';
    return { answer: [`Document [${best.id}] says: "${quoteOf(best)}".`, `${because} ${claim}.`, `**${optionFor(options, decision.label)}**`].join('\n') };
  }
  // Nothing decisive in its own documents: a debater is persuaded by a decisive opponent.
  const decisive = otherAnswers(text).find((other) => {
    const verdict = other.label ? verdictOfOption(other.label) : undefined;
    return verdict !== undefined && verdict !== 'NEI' && options.includes(other.label!);
  });
  if (decisive) {
    const cited = /says: "([^"]*)"/.exec(decisive.text)?.[1];
    return {
      answer: [
        `My documents do not settle whether ${claim}.`,
        ...(cited ? [`The other debater (${decisive.debater}) cites: "${cited}".`] : []),
        `I accept that argument.`,
        `**${decisive.label!}**`,
      ].join('\n'),
    };
  }
  const nei = optionFor(options, 'NEI');
  if (!best) return { answer: [`No document addresses whether ${claim}.`, `**${nei}**`].join('\n') };
  return { answer: [`Document [${best.id}] says: "${quoteOf(best)}".`, `It does not say enough to decide whether ${claim}.`, `**${nei}**`].join('\n') };
}

function query(reading: PromptReading, messages: readonly { content?: unknown }[]): { query: string } {
  const text = allText(messages);
  const previous = parsePreviousQuery(text);
  const base = previous ?? trimClaim(reading.claim);
  const cited = otherAnswers(text).flatMap((other) => [...other.text.matchAll(/Document \[([^\]]+)\]/g)].map((m) => m[1]!));
  // Wiki passage ids name their page (`fever:Title#0`); web ids are URLs and name nothing useful.
  const titles = cited.filter((id) => !/^https?:/.test(id)).map((id) => id.replace(/^[a-z0-9]+:/, '').replace(/[#~].*$/, '').replace(/_+/g, ' '));
  const added = titles.find((title) => !base.toLowerCase().includes(title.toLowerCase()));
  return { query: `[${added ? `${base} ${added}` : base}]` };
}

function answerUnderReview(text: string): string {
  return parseQuotedBlocks(text).find((block) => block.heading === ANSWER_HEADER)?.text ?? '';
}

function statements(_reading: PromptReading, messages: readonly { content?: unknown }[]): { statements: string[] } {
  const answer = answerUnderReview(allText(messages));
  const sentences = answer
    .split('\n')
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z])/))
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && contentWords(s).size > 0);
  return { statements: sentences };
}

function verdicts(reading: PromptReading, messages: readonly { content?: unknown }[]) {
  const list = parseStatements(allText(messages));
  return {
    verdicts: list.map((statement) => {
      // Document ids are references, not content.
      const words = statement.replace(/\[[^\]]*\]/g, ' ');
      const overlap = rankPassages(words, reading.passages)[0]?.overlap ?? 0;
      const supported = overlap >= MIN_OVERLAP;
      return {
        statement,
        reason: supported ? 'The context states this.' : 'The context does not state this.',
        verdict: supported ? 1 : 0,
      };
    }),
  };
}

const NONCOMMITTAL = /does not say enough|do not settle|No document addresses/;

function question(_reading: PromptReading, messages: readonly { content?: unknown }[]) {
  const text = allText(messages);
  const answer = answerUnderReview(text);
  const index = Number(QUESTION_NUMBER.exec(text)?.[1] ?? '1');
  const subject = /(?:the claim that|whether) (.+?)\.?$/m.exec(answer)?.[1];
  const templates = subject
    ? [`${subject}?`, `Is it true that ${subject}?`, `What shows that ${subject}?`]
    : ['What does the document say?', 'What is the answer about?', 'What did the debater conclude?'];
  return { question: templates[(index - 1) % templates.length]!, noncommittal: NONCOMMITTAL.test(answer) ? 1 : 0 };
}

function judge(reading: PromptReading, messages: readonly { content?: unknown }[]): { answer: string } {
  const options = parseOptions(allText(messages));
  const { decision } = reading;
  const best = decision.bestPassage;
  const title = best ? titleOf(best) : undefined;
  const reason = best
    ? `Across the debate, document [${best.id}]${title ? ` (${title})` : ''} is the strongest evidence: "${quoteOf(best)}". ${reading.rationale}`
    : 'No debater found evidence that addresses the claim.';
  return { answer: [reason, `**${optionFor(options, decision.label)}**`].join('\n') };
}

/** Simulator answers for the `tool-mad` method's structured tasks, keyed by schema name. */
export const toolMadResponders: Record<string, SchemaResponder> = {
  tool_mad_query: (reading, _schema, messages) => query(reading, messages),
  tool_mad_answer: (reading, _schema, messages) => debaterAnswer(reading, messages),
  tool_mad_statements: (reading, _schema, messages) => statements(reading, messages),
  tool_mad_statement_verdicts: (reading, _schema, messages) => verdicts(reading, messages),
  tool_mad_question: (reading, _schema, messages) => question(reading, messages),
  tool_mad_judge: (reading, _schema, messages) => judge(reading, messages),
};
