import { MEMORY_SNIPPET_CHARS } from '../shared/memory';

/** The released code's history line for a recalled entry; "..." only when the evidence was cut (§3.2). */
export function recalledLine(entry: { query: string; evidence: string }, maxChars = MEMORY_SNIPPET_CHARS): string {
  const characters = Array.from(entry.evidence); // code points, like Python slicing
  const cut = characters.length > maxChars;
  return `[Memory] Previous evidence for '${entry.query}': ${characters.slice(0, maxChars).join('')}${cut ? '...' : ''}`;
}
