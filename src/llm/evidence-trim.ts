import { EVIDENCE_HEADER } from './prompt-conventions';
import { CHARS_PER_TOKEN } from './token-estimate';
import type { ChatMessage } from './types';

/** A truncated passage keeps at least this much text; shorter, it is dropped instead. */
export const MIN_TRUNCATED_PASSAGE_CHARS = 80;
const PASSAGE_LINE = /^(\[[^\]\n]+\]\s?)(.*)$/;
const TRUNCATION_MARK = '…';

export interface EvidenceTrim {
  messages: ChatMessage[];
  /** Passages in the prompt's evidence blocks before and after trimming (a truncated one still counts). */
  passagesBefore: number;
  passagesAfter: number;
  truncated: number;
  /** False when the evidence could not free as many tokens as asked (it is all gone). */
  freedEnough: boolean;
}

interface PassageLine {
  message: number;
  line: number;
  block: string;
  prefix: string;
  text: string;
}

/**
 * Shortens the evidence blocks of a prompt (renderEvidence's format: `[id] text` lines after
 * `Evidence:`) by about `tokensToFree` estimated tokens. The lowest-ranked passage (the last
 * line) of the block with the most passages goes first, so one block loses its tail and several
 * blocks shrink evenly; the last passage needed is truncated rather than dropped when that frees
 * enough. Pure: the messages given are not changed.
 */
export function trimEvidence(messages: readonly ChatMessage[], tokensToFree: number): EvidenceTrim {
  const passages = evidenceLinesOf(messages);
  let charsToFree = Math.ceil(tokensToFree * CHARS_PER_TOKEN);
  const dropped = new Set<PassageLine>();
  const truncatedTo = new Map<PassageLine, string>();
  for (const passage of dropOrder(passages)) {
    if (charsToFree <= 0) break;
    const lineChars = passage.prefix.length + passage.text.length + 1;
    const kept = passage.text.length - charsToFree - TRUNCATION_MARK.length;
    if (lineChars > charsToFree && kept >= MIN_TRUNCATED_PASSAGE_CHARS) {
      truncatedTo.set(passage, `${passage.text.slice(0, kept).trimEnd()}${TRUNCATION_MARK}`);
      charsToFree = 0;
    } else {
      dropped.add(passage);
      charsToFree -= lineChars;
    }
  }
  return {
    messages: rewritten(messages, passages, dropped, truncatedTo),
    passagesBefore: passages.length,
    passagesAfter: passages.length - dropped.size,
    truncated: truncatedTo.size,
    freedEnough: charsToFree <= 0,
  };
}

function evidenceLinesOf(messages: readonly ChatMessage[]): PassageLine[] {
  const passages: PassageLine[] = [];
  messages.forEach((message, m) => {
    let block: string | undefined;
    message.content.split('\n').forEach((text, line) => {
      if (text.trim() === EVIDENCE_HEADER) {
        block = `${m}:${line}`;
        return;
      }
      const match = block ? PASSAGE_LINE.exec(text) : null;
      if (match && block) passages.push({ message: m, line, block, prefix: match[1]!, text: match[2]! });
      else block = undefined;
    });
  });
  return passages;
}

/** Repeatedly the last remaining passage of the block with the most remaining (ties: the later block). */
function dropOrder(passages: readonly PassageLine[]): PassageLine[] {
  const blocks = new Map<string, PassageLine[]>();
  for (const passage of passages) blocks.set(passage.block, [...(blocks.get(passage.block) ?? []), passage]);
  const remaining = [...blocks.values()];
  const order: PassageLine[] = [];
  for (;;) {
    const largest = remaining.reduce<PassageLine[] | undefined>((best, block) => (block.length > 0 && block.length >= (best?.length ?? 0) ? block : best), undefined);
    if (!largest) return order;
    order.push(largest.pop()!);
  }
}

function rewritten(messages: readonly ChatMessage[], passages: readonly PassageLine[], dropped: Set<PassageLine>, truncatedTo: Map<PassageLine, string>): ChatMessage[] {
  return messages.map((message, m) => {
    const own = passages.filter((p) => p.message === m);
    const droppedLines = new Set(own.filter((p) => dropped.has(p)).map((p) => p.line));
    const replacedLines = new Map(own.filter((p) => truncatedTo.has(p)).map((p) => [p.line, `${p.prefix}${truncatedTo.get(p)!}`]));
    if (droppedLines.size === 0 && replacedLines.size === 0) return message;
    const lines = message.content.split('\n').flatMap((line, i) => (droppedLines.has(i) ? [] : [replacedLines.get(i) ?? line]));
    return { ...message, content: lines.join('\n') };
  });
}
