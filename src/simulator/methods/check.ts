import { CHECK_SCHEMA_NAMES, CONTEXT_PREFIX, SENTENCE_PREFIX } from '../../check/tasks';
import type { SchemaResponder } from '../method-responders';

/**
 * The simulator's document steps, deterministic from the prompt: a sentence's claims are its
 * parts between semicolons; a leading pronoun is replaced by the subject of the context's first
 * sentence; opinions, questions, tautologies and claims without a fact are not check-worthy.
 */

function lineAfter(messages: readonly { content?: unknown }[], prefix: string): string {
  const text = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const line = text.split('\n').filter((l) => l.startsWith(prefix)).at(-1);
  return line === undefined ? '' : line.slice(prefix.length).trim();
}

function asSentence(part: string): string {
  const trimmed = part.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

const extract: SchemaResponder = (_reading, _schema, messages) => {
  const sentence = lineAfter(messages, SENTENCE_PREFIX);
  const claims = sentence
    .split(/;\s+/)
    .map((part) => part.trim())
    .filter((part) => /\p{L}/u.test(part))
    .map(asSentence);
  return { claims };
};

const PRONOUN = /^(It|He|She|They|This|That)\s+/i;
const VERB = /^(is|was|are|were|has|had|have|became|remains|stands|lies)$/;

/** The words of the context's first sentence before its first verb ("The Eiffel Tower" of "The Eiffel Tower is …"). */
function subjectOf(context: string): string | undefined {
  const first = context.split(/(?<=[.!?])\s+/)[0] ?? '';
  const words = first.split(/\s+/);
  const verbAt = words.findIndex((word) => VERB.test(word));
  if (verbAt < 1) return undefined;
  const subject = words.slice(0, verbAt).join(' ');
  return PRONOUN.test(`${subject} `) ? undefined : subject;
}

const decontextualise: SchemaResponder = (reading, _schema, messages) => {
  const subject = subjectOf(lineAfter(messages, CONTEXT_PREFIX));
  const claim = reading.claim;
  return { claim: subject && PRONOUN.test(claim) ? claim.replace(PRONOUN, `${subject} `) : claim };
};

const OPINION = /\b(I think|I believe|I feel|in my opinion|beautiful|wonderful|amazing|terrible|best|worst|should|must-see)\b/i;

function worthinessReason(claim: string): string {
  const text = claim.trim();
  if (text.endsWith('?')) return 'question';
  if (OPINION.test(text)) return 'opinion';
  const tautology = /^(.+?)\s+(?:is|are)\s+(.+?)[.!]?$/i.exec(text);
  if (tautology && tautology[1]!.toLowerCase() === tautology[2]!.toLowerCase()) return 'tautology';
  if (/^(hello|hi|thanks|thank you|please|let us|let's)\b/i.test(text) || text.split(/\s+/).length < 3) return 'not-factual';
  return 'check-worthy';
}

const worthiness: SchemaResponder = (reading) => {
  const reason = worthinessReason(reading.claim);
  return { check_worthy: reason === 'check-worthy', reason };
};

/** Simulator answers for the check.* tasks, keyed by schema name. */
export const checkResponders: Record<string, SchemaResponder> = {
  [CHECK_SCHEMA_NAMES.extract]: extract,
  [CHECK_SCHEMA_NAMES.decontextualise]: decontextualise,
  [CHECK_SCHEMA_NAMES.worthiness]: worthiness,
};
