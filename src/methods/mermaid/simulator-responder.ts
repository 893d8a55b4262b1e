import type { EvidencePassage } from '../../llm/prompt-conventions';
import { MEMORY_LINE_PREFIX, parseExecutorPrompt, type ExecutorPromptReading } from './executor-prompt';
import type { MermaidDecomposition, MermaidTriplet } from './sandbox/mermaid-protocol';
import type { SchemaResponder } from '../../simulator/method-responders';
import { decideVerdict } from '../../simulator/verdict-heuristic';

/**
 * The simulator's MERMAID agents, deterministic from the prompt (spec §10.1's mock policy):
 * a rule-based triplet extractor as the Decomposer; an Executor that answers at once when the
 * recalled memory mentions one of the claim's entities or the evidence so far decides the claim,
 * else searches `search_wikipedia(subject)` (or, without it, `get_summary(subject)`), then `web_search(subject relation object)`, then answers.
 */

const VERBS = new Set(
  (
    'is are was were be has have had became become becomes won wins win died dies born includes include included contains contain ' +
    'produces produced released located founded played plays directed wrote written made makes owns owned lives lived leads led holds ' +
    'held received receives means refers consists remains remained can will could would does did do serves served uses used ' +
    'requires required causes caused occurs occurred reached reaches scored earned ranks ranked'
  ).split(' '),
);
const OBJECT_END = /,|;|\s(?:and|which|that|who|while|because|but)\s/i;

/** (subject, relation, object) at the first verb; a leading "In 1980," style clause is left out of the subject. */
export function simulatedTriplet(claim: string): MermaidTriplet {
  const text = claim.trim().replace(/[.!?]+$/, '');
  const words = text.split(/\s+/);
  const at = words.findIndex((word, i) => i > 0 && VERBS.has(word.toLowerCase().replace(/[^a-z]/g, '')));
  const verbAt = at > 0 ? at : Math.min(Math.max(1, Math.floor(words.length / 2)), words.length - 1);
  const subject = words
    .slice(0, verbAt)
    .join(' ')
    .replace(/^(in|on|at|during|by|as of|since)\b[^,]*,\s*/i, '')
    .trim();
  const rest = words.slice(verbAt + 1).join(' ');
  const object = rest.split(OBJECT_END)[0]!.trim();
  return { subject: subject || words.slice(0, 3).join(' '), relation: words[verbAt] ?? '', object };
}

function simulatedDecomposition(claim: string): MermaidDecomposition {
  return { triplets: [{ ...simulatedTriplet(claim), attributes: null }], topic: 'General' };
}

function textOf(messages: readonly { content?: unknown }[]): string {
  return messages.map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n');
}

/** Evidence the executor has seen: recalled memory and observations, as passages for the verdict heuristic. */
function passagesOf(prompt: ExecutorPromptReading): EvidencePassage[] {
  const memory = prompt.memory.map((line, i) => ({ id: `memory-${i + 1}`, text: memoryEvidence(line) }));
  const observations = prompt.history
    .filter((line) => line.startsWith('Observation: '))
    .map((line, i) => ({ id: `observation-${i + 1}`, text: line.slice('Observation: '.length) }));
  return [...memory, ...observations];
}

function memoryEvidence(line: string): string {
  const at = line.indexOf("': ");
  return at >= 0 ? line.slice(at + 3) : line.slice(MEMORY_LINE_PREFIX.length);
}

function keysOf(decomposition: MermaidDecomposition | null): string[] {
  return (decomposition?.triplets ?? [])
    .flatMap((triplet) => [triplet.subject, ...(Array.isArray(triplet.object) ? triplet.object : [triplet.object])])
    .map((key) => String(key).toLowerCase().trim())
    .filter((key) => key.length >= 3);
}

/** What a model says of an undecided claim when no schema holds it to the two labels: off the label vocabulary. */
export const SIMULATED_UNDECIDED_ANSWER = 'NOT ENOUGH INFO';

/**
 * The forced answer's shape: `{thought, answer}`. Under constrained decoding the answer is one of the
 * two labels (the negative one when the evidence does not decide); without it, an undecided claim
 * gets SIMULATED_UNDECIDED_ANSWER, as real models answer outside a two-label vocabulary.
 */
function answerOf(prompt: ExecutorPromptReading, why: string, constrained: boolean) {
  const decision = decideVerdict(prompt.claim, passagesOf(prompt));
  const undecided = decision.label === 'NEI' && !constrained;
  const answer = undecided ? SIMULATED_UNDECIDED_ANSWER : decision.label === 'SUPPORTED' ? prompt.labels.positive : prompt.labels.negative;
  return { thought: `${why} The evidence ${decision.label === 'NEI' ? 'does not confirm' : decision.label === 'SUPPORTED' ? 'supports' : 'contradicts'} the claim (${decision.reason}).`, answer };
}

/** A step's answer: `{thought, next: {answer}}`. */
function answerStep(prompt: ExecutorPromptReading, why: string, constrained: boolean) {
  const { thought, answer } = answerOf(prompt, why, constrained);
  return { thought, next: { answer } };
}

/** One executor step in the step schema's shape: `{thought, next: {action: {name, input}} | {answer}}`. */
function executorStep(prompt: ExecutorPromptReading, constrained: boolean) {
  const keys = keysOf(prompt.decomposition);
  const covered = prompt.memory.some((line) => keys.some((key) => memoryEvidence(line).toLowerCase().includes(key)));
  if (covered) return answerStep(prompt, 'The recalled memory already covers an entity of the claim.', constrained);
  const passages = passagesOf(prompt);
  if (passages.length > 0 && decideVerdict(prompt.claim, passages).label !== 'NEI') return answerStep(prompt, 'The evidence so far decides the claim.', constrained);
  const triplet = prompt.decomposition?.triplets[0] ?? simulatedTriplet(prompt.claim);
  const objects = Array.isArray(triplet.object) ? triplet.object.join(' ') : triplet.object;
  const plan = [
    prompt.tools.includes('search_wikipedia')
      ? { name: 'search_wikipedia', input: triplet.subject || prompt.claim }
      : { name: 'get_summary', input: triplet.subject || prompt.claim },
    { name: 'web_search', input: [triplet.subject, triplet.relation, objects].filter(Boolean).join(' ') || prompt.claim },
  ].filter((step) => prompt.tools.includes(step.name));
  const done = prompt.history.filter((line) => line.startsWith('Action: Used ')).length;
  const next = plan[done];
  if (!next) return answerStep(prompt, 'No further search is planned.', constrained);
  return { thought: `I should look up "${next.input}".`, next: { action: { name: next.name, input: next.input } } };
}

/**
 * The released-prompt mode's executor, for test templates that name its schema (the released prompts name
 * none, so the simulator answers them in prose): `google` first (the code's alias; extract_key_facts with
 * RELEASED_TITLE_TOOL_MARKER), then "False"; a template with NO_ANSWER_MARKER never answers, so the loop reaches T_max.
 */
export const RELEASED_NO_ANSWER_MARKER = 'never answer';
/** A template with this marker makes the executor call extract_key_facts (a title tool) instead of `google`. */
export const RELEASED_TITLE_TOOL_MARKER = 'key facts first';
function releasedReactStep(messages: readonly { role: string; content?: unknown }[]) {
  const system = textOf(messages.filter((message) => message.role === 'system'));
  const claim = textOf(messages.filter((message) => message.role === 'user')).replace(/^Continue reasoning about: /, '');
  if (system.includes(RELEASED_NO_ANSWER_MARKER)) return { thought: 'Still thinking.', action: { name: 'none' } };
  if (system.includes('Action: Used ')) return { thought: 'The search result is enough.', answer: 'False' };
  const name = system.includes(RELEASED_TITLE_TOOL_MARKER) ? 'extract_key_facts' : 'google';
  return { thought: 'I should search.', action: { name, reason: 'no evidence yet', input: claim } };
}

/** Simulator answers for the `mermaid` method's structured tasks, keyed by schema name. */
export const mermaidResponders: Record<string, SchemaResponder> = {
  mermaid_decomposition: (reading) => simulatedDecomposition(reading.claim),
  mermaid_executor_step: (_reading, _schema, messages, constrained = true) => executorStep(parseExecutorPrompt(textOf(messages)), constrained),
  mermaid_forced_answer: (_reading, _schema, messages, constrained = true) => answerOf(parseExecutorPrompt(textOf(messages)), 'Forced to answer now.', constrained),
  mermaid_released_react: (_reading, _schema, messages) => releasedReactStep(messages),
};
