import { EMULATE_SCHEMA_NAMES } from './tasks';
import {
  MEMORY_HEADER,
  type MemoryItem,
  NEW_RESULT_HEADER,
  parseMemorySection,
  parseQueryLine,
  parseRankSection,
} from './prompt-sections';
import type { SchemaResponder } from '../../simulator/method-responders';
import type { PromptReading } from '../../simulator/prompt-reader';
import { stableIndex } from '../../simulator/schema-generator';
import { contentWords } from '../../simulator/text';
import { decideVerdict } from '../../simulator/verdict-heuristic';

/**
 * The simulator's EMULATE agents, deterministic from the prompt: word overlap stands in for
 * reading. Some answers come as "Yes." or "**No**" so that strict and lenient parsing differ,
 * some results read as not self-contained until the memory bank has grown (the final pass), and
 * some rankings use `<3> | <1>` (code-compat falls back to engine order).
 */

const PRONOUN_START = /^(it|he|she|they|this|these|those|his|her|their|its)\b/i;
const CREDIBLE_HOST = /(\.gov|\.edu|wikipedia\.org|\.org)(\/|$)/i;

function lastUserText(messages: readonly { role: string; content?: unknown }[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

function shareOf(words: Set<string>, text: string): number {
  if (words.size === 0) return 0;
  const other = contentWords(text);
  let shared = 0;
  for (const word of words) if (other.has(word)) shared++;
  return shared / words.size;
}

/** Yes/No, sometimes dressed up as a chatty model would. */
function yesNo(value: boolean, key: string): { answer: string } {
  const word = value ? 'Yes' : 'No';
  const style = stableIndex(key, 7);
  return { answer: style === 0 ? `${word}.` : style === 1 ? `**${word}**` : word };
}

function queryFrom(claim: string, covered: Set<string>, shift: number): string {
  const words = [...contentWords(claim)];
  const missing = words.filter((w) => !covered.has(w));
  const ordered = [...missing, ...words.filter((w) => covered.has(w))];
  const rotated = ordered.slice(shift % Math.max(1, ordered.length)).concat(ordered.slice(0, shift % Math.max(1, ordered.length)));
  return rotated.slice(0, 7).join(' ') || claim;
}

function memoryOf(text: string): MemoryItem[] {
  return parseMemorySection(text, MEMORY_HEADER);
}

function coveredWords(claim: string, memory: MemoryItem[]): Set<string> {
  const claimWords = contentWords(claim);
  const covered = new Set<string>();
  for (const item of memory) for (const word of contentWords(item.content)) if (claimWords.has(word)) covered.add(word);
  return covered;
}

const selfContained: SchemaResponder = (reading, _schema, messages) => {
  const text = lastUserText(messages);
  const result = parseMemorySection(text, NEW_RESULT_HEADER)[0];
  if (!result) return yesNo(false, reading.claim);
  const memory = memoryOf(text);
  const alone = result.content.split(/\s+/).length >= 12 && !PRONOUN_START.test(result.content) && stableIndex(result.link, 5) !== 0;
  const withMemory = memory.length > 0 && shareOf(contentWords(memory.map((m) => m.content).join(' ')), result.content) >= 0.05;
  return yesNo(alone || withMemory, `scc ${result.link}`);
};

const helpful: SchemaResponder = (reading, _schema, messages) => {
  const text = lastUserText(messages);
  const result = parseMemorySection(text, NEW_RESULT_HEADER)[0];
  if (!result) return yesNo(false, reading.claim);
  const claimWords = contentWords(reading.claim);
  const covered = coveredWords(reading.claim, memoryOf(text));
  const adds = [...contentWords(result.content)].some((w) => claimWords.has(w) && !covered.has(w));
  return yesNo(adds && shareOf(claimWords, result.content) >= 0.2, `helpful ${result.link}`);
};

function decisionOn(reading: PromptReading, memory: MemoryItem[]) {
  return decideVerdict(
    reading.claim,
    memory.map((m, i) => ({ id: `m${i + 1}`, text: m.content })),
  );
}

const sufficient: SchemaResponder = (reading, _schema, messages) => {
  const memory = memoryOf(lastUserText(messages));
  return yesNo(decisionOn(reading, memory).label !== 'NEI', `sufficient ${reading.claim} ${memory.length}`);
};

const classify: SchemaResponder = (reading, _schema, messages) => {
  const decision = decisionOn(reading, memoryOf(lastUserText(messages)));
  const isTrue = decision.label === 'SUPPORTED' || (decision.label === 'NEI' && stableIndex(reading.claim, 4) !== 0);
  return { answer: isTrue ? 'True' : 'False' };
};

const initialQuery: SchemaResponder = (reading) => {
  const query = queryFrom(reading.claim, new Set(), 0);
  return { queries: [stableIndex(reading.claim, 4) === 0 ? `"${query}"` : query] };
};

const additionalQuery: SchemaResponder = (reading, _schema, messages) => {
  const memory = memoryOf(lastUserText(messages));
  return { queries: [queryFrom(reading.claim, coveredWords(reading.claim, memory), memory.length)] };
};

const searchRank: SchemaResponder = (_reading, _schema, messages) => {
  const text = lastUserText(messages);
  const query = contentWords(parseQueryLine(text) ?? '');
  const items = parseRankSection(text);
  const scored = items
    .map((item) => ({ item, score: shareOf(query, `${item.title} ${item.snippet}`) + (CREDIBLE_HOST.test(item.link) ? 0.2 : 0) }))
    .sort((a, b) => b.score - a.score || a.item.position - b.item.position);
  const kept = scored.some((s) => s.score > 0) ? scored.filter((s) => s.score > 0) : scored;
  const positions = kept.map((s) => s.item.position);
  const angled = stableIndex([...query].join(' '), 5) === 0;
  return { ranking: positions.map((p) => (angled ? `<${p}>` : String(p))).join(' | ') };
};

const extract: SchemaResponder = (_reading, _schema, messages) => {
  const text = lastUserText(messages);
  const page = text.split('\n').slice(4).join(' ');
  return { extractedText: page.split(/\s+/).filter(Boolean).slice(0, 120).join(' ') };
};

/** Simulator answers for the `emulate` method's structured tasks, keyed by schema name. */
export const emulateResponders: Record<string, SchemaResponder> = {
  [EMULATE_SCHEMA_NAMES.initialQuery]: initialQuery,
  [EMULATE_SCHEMA_NAMES.searchRank]: searchRank,
  [EMULATE_SCHEMA_NAMES.webPageExtractor]: extract,
  [EMULATE_SCHEMA_NAMES.selfContained]: selfContained,
  [EMULATE_SCHEMA_NAMES.helpful]: helpful,
  [EMULATE_SCHEMA_NAMES.sufficient]: sufficient,
  [EMULATE_SCHEMA_NAMES.classifier]: classify,
  [EMULATE_SCHEMA_NAMES.additionalQuery]: additionalQuery,
};
