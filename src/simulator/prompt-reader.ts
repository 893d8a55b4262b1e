import { type EvidencePassage, parseClaim, parseEvidence, parseJsonSchemaInstruction } from '../llm/prompt-conventions';
import { decideVerdict, type VerdictDecision } from './verdict-heuristic';

export interface SimMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

/** What the simulator takes from a conversation: the claim, the evidence, its decision. */
export interface PromptReading {
  claim: string;
  passages: EvidencePassage[];
  decision: VerdictDecision;
  rationale: string;
  hasToolResults: boolean;
  /** A JSON schema the gateway put into the prompt (servers without json_schema support). */
  schemaInPrompt: unknown;
}

const QUOTE_CHARS = 160;

export function readPrompt(messages: readonly SimMessage[]): PromptReading {
  const texts = messages.map((m) => ({ ...m, text: textOf(m.content) }));
  const all = texts.map((m) => m.text).join('\n');
  const lastUser = texts.filter((m) => m.role === 'user').at(-1)?.text ?? all;
  const claim = parseClaim(all) ?? lastUser.split('\n')[0]!.trim();
  const toolResults = texts.filter((m) => m.role === 'tool');
  const passages = [...parseEvidence(all), ...toolResults.filter((m) => parseEvidence(m.text).length === 0).map(toolPassage)];
  const decision = decideVerdict(claim, passages);
  return { claim, passages, decision, rationale: rationaleOf(decision), hasToolResults: toolResults.length > 0, schemaInPrompt: parseJsonSchemaInstruction(all) };
}

function toolPassage(message: SimMessage & { text: string }, index: number): EvidencePassage {
  return { id: message.tool_call_id ?? `tool-${index + 1}`, text: message.text.replace(/\s+/g, ' ').trim() };
}

/** Content may be a string or an array of parts ({type:'text', text}). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: unknown }).text).filter((t) => typeof t === 'string').join('\n');
  return '';
}

export function rationaleOf(decision: VerdictDecision): string {
  const best = decision.bestPassage;
  if (!best || decision.label === 'NEI') return 'The evidence does not state enough of the claim to decide; not enough information.';
  const quote = best.text.length > QUOTE_CHARS ? `${best.text.slice(0, QUOTE_CHARS)}…` : best.text;
  const verb = decision.label === 'SUPPORTED' ? 'supports' : 'contradicts';
  return `Passage [${best.id}] says "${quote}", which ${verb} the claim (${decision.reason}).`;
}
