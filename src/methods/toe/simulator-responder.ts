import { SEARCH_SOURCE_PREFIX, SOURCE_PREFIX } from './tasks';
import type { SchemaResponder } from '../../simulator/method-responders';
import type { PromptReading } from '../../simulator/prompt-reader';
import { contentWords, numbersIn, words } from '../../simulator/text';

/**
 * The simulator's ToE agents, deterministic from the prompt's words: a keyword claim analyzer,
 * keyword query plans and per-source queries, a cleaner that keeps the chunk's sentences sharing
 * the claim's words, an analyst whose stance is the simulator's lexical verdict on those statements
 * (credibility and authority by the named source), and a decomposer that splits the claim at its
 * clauses (or into core event + entity identity + quantity). Never a method's accuracy.
 */

const CATEGORY_WORDS: [string, string[]][] = [
  ['political', ['president', 'senator', 'congress', 'election', 'government', 'minister', 'party', 'vote', 'governor', 'democrat', 'republican', 'obama', 'trump', 'policy', 'tax', 'law']],
  ['health', ['health', 'disease', 'vaccine', 'covid', 'virus', 'cancer', 'patients', 'hospital', 'drug', 'treatment', 'infection', 'medical']],
  ['scientific', ['cells', 'cell', 'protein', 'gene', 'genes', 'study', 'mice', 'expression', 'receptor', 'species', 'physics', 'chemical', 'molecular', 'clinical']],
  ['historical', ['war', 'century', 'empire', 'king', 'ancient', 'founded', 'history', 'historical', 'dynasty', 'revolution']],
  ['celebrity', ['actor', 'actress', 'singer', 'film', 'album', 'band', 'starred', 'movie', 'song', 'television', 'series', 'rapper', 'musician']],
];

const SOURCE_PROFILES: [RegExp, { credibility: number; authoritative: boolean }][] = [
  [/arxiv/i, { credibility: 0.9, authoritative: true }],
  [/wikipedia/i, { credibility: 0.85, authoritative: true }],
  [/fact-checking/i, { credibility: 0.85, authoritative: true }],
  [/reddit/i, { credibility: 0.3, authoritative: false }],
  [/social/i, { credibility: 0.35, authoritative: false }],
];

function analyseClaim(reading: PromptReading) {
  const claimWords = words(reading.claim);
  const category = CATEGORY_WORDS.find(([, keys]) => keys.some((key) => claimWords.includes(key)))?.[0] ?? 'other';
  const years = [...numbersIn(reading.claim)].map(Number).filter((n) => n >= 1000 && n <= 2100);
  const recent = years.some((y) => y >= 2020) || claimWords.includes('recently');
  const historical = years.some((y) => y < 1950) || category === 'historical';
  const opinion = claimWords.some((w) => ['best', 'worst', 'should', 'greatest'].includes(w));
  const prediction = claimWords.some((w) => ['will', 'going'].includes(w));
  const locale = /\b(United States|U\.S\.|American|America)\b/.test(reading.claim) ? 'domestic' : /\b(world|global|worldwide)\b/i.test(reading.claim) ? 'global' : 'international';
  return { category, locale, recent, historical, factual: !opinion && !prediction, opinion, prediction };
}

function keywords(text: string, max = 8): string {
  return [...contentWords(text)].slice(0, max).join(' ');
}

function planQueries(reading: PromptReading) {
  const keys = keywords(reading.claim);
  return { background: [keys], supporting: [reading.claim.replace(/[.!?]+$/, '')], counter: [`${keys} false disputed`] };
}

function lineValue(text: string, prefix: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.startsWith(prefix))
      ?.slice(prefix.length)
      .trim() ?? ''
  );
}

function promptText(messages: readonly { content?: unknown }[]): string {
  return messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
}

function writeQuery(reading: PromptReading, text: string) {
  const source = lineValue(text, SEARCH_SOURCE_PREFIX);
  const planned = lineValue(text, 'Planned ')
    .replace(/^\w+ queries:\s*/, '')
    .split(' | ')
    .filter((q) => q && q !== '(none)');
  const issued = new Set(lineValue(text, 'Already issued: ').split(' | '));
  if (/wikipedia/i.test(source)) {
    const entity = /\b([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)*)/u.exec(reading.claim)?.[1] ?? keywords(reading.claim, 3);
    const query = `${entity} ${keywords(reading.claim, 4)}`.trim();
    if (!issued.has(query)) return { query };
  }
  const fresh = planned.find((q) => !issued.has(q));
  return { query: fresh ?? `${keywords(reading.claim)} ${issued.size}` };
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function clean(reading: PromptReading) {
  const claimWords = contentWords(reading.claim);
  const statements = reading.passages
    .flatMap((p) => sentencesOf(p.text))
    .map((sentence) => {
      const sentenceWords = contentWords(sentence);
      let shared = 0;
      for (const word of claimWords) if (sentenceWords.has(word)) shared++;
      return { sentence, share: claimWords.size === 0 ? 0 : shared / claimWords.size };
    })
    .filter((s) => s.share >= 0.2)
    .sort((a, b) => b.share - a.share)
    .slice(0, 3)
    .map((s) => s.sentence);
  return { statements };
}

function analyse(reading: PromptReading, text: string) {
  const source = lineValue(text, SOURCE_PREFIX);
  const profile = SOURCE_PROFILES.find(([pattern]) => pattern.test(source))?.[1] ?? { credibility: 0.6, authoritative: false };
  const { decision } = reading;
  const stance = decision.label === 'SUPPORTED' ? 'support' : decision.label === 'REFUTED' ? 'refute' : 'neutral';
  const relevance = Math.round(Math.min(1, decision.overlap) * 100) / 100;
  const republished = reading.passages.some((p) => /\b(according to|reported|reports|said)\b/i.test(p.text));
  return {
    stance,
    authoritative: profile.authoritative && relevance >= 0.5,
    primary: !republished,
    relevance,
    credibility: profile.credibility,
    sourceType: source.split(' ')[0] ?? 'other',
    rationale: reading.rationale,
  };
}

const CLAUSE_SPLIT = /,\s+(?:and\s+)?|\s+and\s+|\s+(?:which|who|while|but)\s+/;

function decompose(reading: PromptReading) {
  const claim = reading.claim.trim().replace(/[.!?]+$/, '');
  const entity = /\b([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)*)/u.exec(claim)?.[1] ?? claim.split(/\s+/).slice(0, 2).join(' ');
  const clauses = claim.split(CLAUSE_SPLIT).filter((part) => part.trim().split(/\s+/).length >= 3);
  const subclaims: { text: string; dimension: string; importance: number }[] = [];
  if (clauses.length >= 2) {
    const dimensions = ['core_event', 'contextual_background', 'causal_relationship', 'source_credibility'];
    clauses.slice(0, 4).forEach((clause, i) => {
      const text = i === 0 || clause.includes(entity) ? clause.trim() : `${entity}: ${clause.trim()}`;
      const dimension = numbersIn(clause).size > 0 && !subclaims.some((s) => s.dimension === 'quantitative_accuracy') ? 'quantitative_accuracy' : dimensions[i]!;
      subclaims.push({ text: `${text}.`, dimension, importance: i === 0 ? 2 : 1 });
    });
  } else {
    subclaims.push({ text: `${claim}.`, dimension: 'core_event', importance: 0.6 });
    subclaims.push({ text: `${entity} is the one the claim means: ${claim}.`, dimension: 'entity_identity', importance: 0.4 });
    if (numbersIn(claim).size > 0) subclaims.push({ text: `The figures in the claim are accurate: ${claim}.`, dimension: 'quantitative_accuracy', importance: 0.3 });
  }
  const total = subclaims.reduce((sum, s) => sum + s.importance, 0);
  return { subclaims: subclaims.map((s) => ({ ...s, importance: Math.round((s.importance / total) * 1000) / 1000 })) };
}

/** Simulator answers for the `toe` method's structured tasks, keyed by schema name. */
export const toeResponders: Record<string, SchemaResponder> = {
  toe_claim_analysis: (reading) => analyseClaim(reading),
  toe_query_plan: (reading) => planQueries(reading),
  toe_query: (reading, _schema, messages) => writeQuery(reading, promptText(messages)),
  toe_clean: (reading) => clean(reading),
  toe_analysis: (reading, _schema, messages) => analyse(reading, promptText(messages)),
  toe_decompose: (reading) => decompose(reading),
};
