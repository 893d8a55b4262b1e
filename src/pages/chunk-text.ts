export interface TextChunk {
  text: string;
  /** Offsets of `text` in the input, for citing a passage. */
  start: number;
  end: number;
}

export interface ChunkOptions {
  maxChars: number;
  /** Characters the next chunk repeats from the end of the previous one (rounded to a word start). */
  overlap?: number;
}

/** Splits text into chunks of at most `maxChars`, cutting at a paragraph, sentence or word boundary when one is in the second half. */
export function chunkText(text: string, { maxChars, overlap = 0 }: ChunkOptions): TextChunk[] {
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= maxChars) throw new RangeError(`overlap must be an integer in [0, maxChars), got ${overlap}`);
  const chunks: TextChunk[] = [];
  let start = skipWhitespace(text, 0);
  while (start < text.length) {
    const end = cutPoint(text, start, Math.min(start + maxChars, text.length));
    const trimmedEnd = start + text.slice(start, end).trimEnd().length;
    chunks.push({ text: text.slice(start, trimmedEnd), start, end: trimmedEnd });
    if (end >= text.length) break;
    start = Math.max(nextStart(text, end - overlap, end), start + 1);
  }
  return chunks;
}

function cutPoint(text: string, start: number, limit: number): number {
  if (limit >= text.length) return text.length;
  const window = text.slice(start, limit + 1);
  const earliest = Math.floor((limit - start) / 2);
  for (const boundary of [/\n\s*\n/g, /[.!?]["')\]]?\s/g, /\s/g]) {
    let cut = -1;
    for (const match of window.matchAll(boundary)) if (match.index >= earliest && match.index + match[0].length <= limit - start + 1) cut = match.index + match[0].length;
    if (cut > 0) return Math.min(start + cut, limit);
  }
  return limit;
}

/** Moves an overlap start forward to the beginning of a word (but not past `end`). */
function nextStart(text: string, from: number, end: number): number {
  let index = from;
  while (index > 0 && index < end && !/\s/.test(text[index - 1] ?? '')) index++;
  return skipWhitespace(text, index);
}

function skipWhitespace(text: string, index: number): number {
  while (index < text.length && /\s/.test(text[index] ?? '')) index++;
  return index;
}
