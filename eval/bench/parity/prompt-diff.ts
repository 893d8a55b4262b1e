/** One LLM call as either side recorded it, in call order. */
export interface RecordedCall {
  prompt: string;
  answer: string;
  /** The answer cap the caller sent (max_tokens or max_completion_tokens), if any. */
  maxTokens?: number;
}

/** Whitespace-normalised: runs of whitespace become one space, ends trimmed. */
export function normalisePrompt(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function samePrompt(a: string, b: string): boolean {
  return normalisePrompt(a) === normalisePrompt(b);
}

/** Calls compared at the same step index; only steps both sides reached count. */
export function identicalPromptShare(reference: RecordedCall[], verity: RecordedCall[]): { identical: number; compared: number } {
  const compared = Math.min(reference.length, verity.length);
  let identical = 0;
  for (let step = 0; step < compared; step++) if (samePrompt(reference[step]!.prompt, verity[step]!.prompt)) identical++;
  return { identical, compared };
}

export interface Divergence {
  step: number;
  kind: 'prompt' | 'answer' | 'length';
  diff: string;
}

/** The first step whose prompt (or, prompts equal, answer) differs; undefined when both traces are the same. */
export function firstDivergence(reference: RecordedCall[], verity: RecordedCall[]): Divergence | undefined {
  const compared = Math.min(reference.length, verity.length);
  for (let step = 0; step < compared; step++) {
    const a = reference[step]!;
    const b = verity[step]!;
    if (!samePrompt(a.prompt, b.prompt)) return { step, kind: 'prompt', diff: lineDiff(a.prompt, b.prompt) };
    if (normalisePrompt(a.answer) !== normalisePrompt(b.answer)) return { step, kind: 'answer', diff: lineDiff(a.answer, b.answer) };
  }
  if (reference.length !== verity.length) {
    return { step: compared, kind: 'length', diff: `reference made ${reference.length} calls, verity ${verity.length}` };
  }
  return undefined;
}

/** A minimal line diff (LCS): "- " reference only, "+ " verity only, "  " both; lines compared whitespace-normalised. */
export function lineDiff(reference: string, verity: string): string {
  const a = reference.split('\n');
  const b = verity.split('\n');
  const key = (line: string) => normalisePrompt(line);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = key(a[i]!) === key(b[j]!) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (key(a[i]!) === key(b[j]!)) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  while (i < a.length) out.push(`- ${a[i++]}`);
  while (j < b.length) out.push(`+ ${b[j++]}`);
  return out.join('\n');
}
