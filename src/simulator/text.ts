/** Lexical helpers of the simulator: it reads prompts as bags of words, nothing more. */

const STOPWORDS = new Set(
  (
    'a an the and or but of in on at to for from by with as is are was were be been being it its this that these those ' +
    'he she they them his her their we you i me my our your has have had do does did which who whom what when where ' +
    'there here than then so such into onto over under about also can could would should will shall may might must ' +
    'claim evidence passage'
  ).split(' '),
);

export const NEGATION_WORDS = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'without', 'cannot', 'false', 'denied', 'denies']);

/** Lower-cased words and numbers; "n't" becomes the word "not". */
export function words(text: string): string[] {
  return (text.toLowerCase().replace(/n't\b/g, ' not').match(/[\p{L}\p{N}]+(?:[.,]\d+)*/gu) ?? []).map((w) => w.replace(/,/g, ''));
}

export function contentWords(text: string): Set<string> {
  return new Set(words(text).filter((w) => !STOPWORDS.has(w) && !NEGATION_WORDS.has(w) && !isNumber(w)));
}

export function numbersIn(text: string): Set<string> {
  return new Set(words(text).filter(isNumber));
}

export function hasNegation(text: string): boolean {
  return words(text).some((w) => NEGATION_WORDS.has(w));
}

export function isNumber(word: string): boolean {
  return /^\d+(?:\.\d+)?$/.test(word);
}

/** Whitespace token count, the simulator's notion of "tokens". */
export function countTokens(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
