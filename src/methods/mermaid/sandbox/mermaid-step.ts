/**
 * The two shapes of a MERMAID executor reply, as pure, sandbox-safe logic. The step schema sent to the
 * model is `{thought, next: {action: {name, input}} | {answer}}`: a strict server's constrained decoding
 * then yields exactly one of a tool call (one string argument) or a final answer. Recorded histories
 * hold the older flat shape `{thought?, action?: {name?, reason?, input?}, answer?}` (the paper's format),
 * which is also what a server that ignores the schema may still answer.
 * No imports with runtime effect.
 */
import type { ExecutorStep } from './mermaid-protocol';
import { TOOL_ALIASES } from './mermaid-protocol';

export type ExecutorNext = { action: { name: string; input: string } } | { answer: string };

/** The executor reply as the step schema defines it (`mermaid.executor-step` version 2 and later). */
export interface ExecutorReply {
  thought: string;
  next: ExecutorNext;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasNext(reply: unknown): reply is ExecutorReply {
  return isObject(reply) && isObject(reply.next);
}

/**
 * What the workflow's protocol (interpretStep) reads, from either shape: a recorded flat reply is
 * returned as it is (so old histories replay unchanged); a new reply becomes the flat form, with an
 * empty tool input meaning "the claim" as in the code.
 */
export function executorStepOf(reply: ExecutorReply | ExecutorStep): ExecutorStep {
  if (!hasNext(reply)) return reply as ExecutorStep;
  const { thought, next } = reply;
  if ('answer' in next) return { thought, answer: next.answer };
  const input = next.action.input.trim() === '' ? null : next.action.input;
  return { thought, action: { name: next.action.name, input } };
}

/** A tool's one argument as a string: an object's only string value, else its JSON. */
function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === null || input === undefined) return '';
  if (isObject(input)) {
    const strings = Object.values(input).filter((value): value is string => typeof value === 'string');
    if (strings.length === 1 && Object.keys(input).length === 1) return strings[0]!;
  }
  return JSON.stringify(input);
}

/** A tool name as the model wrote it, lower-cased and with the code's aliases (wikipedia, google, …) mapped. */
function toolNameOf(name: unknown): unknown {
  if (typeof name !== 'string') return name;
  const lowered = name.trim().toLowerCase();
  return TOOL_ALIASES[lowered] ?? lowered;
}

function liftedAction(action: Json): Json {
  return { name: toolNameOf(action.name), input: inputText(action.input) };
}

/**
 * Reads an executor answer into the step schema before it is validated, for servers that do not
 * constrain decoding: the paper's flat format is lifted (an answer wins over an action, as in the
 * code; an object input becomes a string), tool names are lower-cased and aliases mapped, and a
 * missing thought is empty. Anything else is returned as it is, for the schema to reject.
 */
export function liftExecutorReply(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const thought = typeof raw.thought === 'string' ? raw.thought : '';
  if (isObject(raw.next)) {
    const next = raw.next;
    if (typeof next.answer === 'string' && next.answer.trim() !== '') return { thought, next: { answer: next.answer } };
    if (isObject(next.action)) return { thought, next: { action: liftedAction(next.action) } };
    return { thought, next };
  }
  if (typeof raw.answer === 'string' && raw.answer.trim() !== '') return { thought, next: { answer: raw.answer } };
  if (isObject(raw.action)) return { thought, next: { action: liftedAction(raw.action) } };
  return raw;
}

/** Reads a forced answer: a missing thought is empty, and a reply in the step shape gives its answer. */
export function liftForcedAnswer(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const thought = typeof raw.thought === 'string' ? raw.thought : '';
  if (typeof raw.answer === 'string') return { thought, answer: raw.answer };
  if (isObject(raw.next) && typeof raw.next.answer === 'string') return { thought, answer: raw.next.answer };
  return raw;
}
