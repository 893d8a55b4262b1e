/**
 * Tolerant JSON extraction for models that answer with prose around the JSON:
 * the whole text, else a fenced ```json block, else the first balanced {...}.
 */
export function extractJson(text: string): unknown {
  for (const candidate of jsonCandidates(text)) {
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

function* jsonCandidates(text: string): Generator<string> {
  yield text.trim();
  for (const match of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) yield match[1]!.trim();
  const start = text.indexOf('{');
  if (start >= 0) {
    const object = balancedObjectAt(text, start);
    if (object) yield object;
  }
}

/** The `{...}` starting at `start`, respecting strings and escapes; undefined if unbalanced. */
export function balancedObjectAt(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}
