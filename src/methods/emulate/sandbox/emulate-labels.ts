/**
 * Reading EMULATE's one-word answers (Yes/No, True/False). Sandbox-safe: workflows import it.
 * The code (spec §2.0) compares `output.strip().lower()` with exact equality, so "Yes." counts as
 * No; lenient reading strips markdown, quotes and punctuation and takes the first word (spec §7.5).
 */

export interface BinaryAnswer {
  value: boolean;
  /** False when the answer was neither word: `value` is then the code's default, false. */
  understood: boolean;
}

export function parseYesNo(text: string, strict: boolean): BinaryAnswer {
  return parseBinary(text, strict, 'yes', 'no');
}

export function parseTrueFalse(text: string, strict: boolean): BinaryAnswer {
  return parseBinary(text, strict, 'true', 'false');
}

function parseBinary(text: string, strict: boolean, positive: string, negative: string): BinaryAnswer {
  const word = strict ? text.trim().toLowerCase() : firstWord(text);
  if (word === positive) return { value: true, understood: true };
  if (word === negative) return { value: false, understood: true };
  return { value: false, understood: false };
}

function firstWord(text: string): string {
  const cleaned = text.toLowerCase().replace(/[*_`#>"'“”‘’«»()[\]{}]/g, ' ');
  return cleaned.match(/[a-z]+/)?.[0] ?? '';
}
