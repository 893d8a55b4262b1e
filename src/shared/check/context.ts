/**
 * The text around a sentence that its prompts see (sandbox-safe: the document workflow builds its
 * prompts with it): the sentence, then one more sentence on each side in turn, within `maxChars`.
 */
export function sentenceContext(sentences: readonly string[], index: number, maxChars: number): string {
  const own = sentences[index];
  if (!own) return '';
  let from = index;
  let to = index;
  let length = own.length;
  for (let grew = true; grew; ) {
    grew = false;
    const before = sentences[from - 1];
    if (before && length + before.length + 1 <= maxChars) {
      from -= 1;
      length += before.length + 1;
      grew = true;
    }
    const after = sentences[to + 1];
    if (after && length + after.length + 1 <= maxChars) {
      to += 1;
      length += after.length + 1;
      grew = true;
    }
  }
  return sentences.slice(from, to + 1).join(' ');
}
