/**
 * How MERMAID's released main.py reads a model's plain-text answer as JSON: `extract_json_from_text`
 * (the executor) and the decomposer's fence stripping, strategy by strategy. Sandbox-safe.
 */
import { pythonJsonLoads, pythonStrip } from './python-text';

const OPENING_FENCE = /^```[^\n]*\n/;
const CLOSING_FENCE = /\n?```$/;
const ANSWER_OBJECT = /\{[^{}]*"answer"\s*:\s*"[^"]*"[^{}]*\}/;
const ACTION_OBJECT = /\{[^{}]*"action"\s*:\s*\{[^{}]*\}[^{}]*\}/;

/** `content` without a leading ```lang line and a trailing ```, stripped (both agents do this). */
export function withoutCodeFence(text: string): string {
  return pythonStrip(text.replace(OPENING_FENCE, '').replace(CLOSING_FENCE, ''));
}

/** extract_json_from_text: the first strategy that parses wins; `undefined` is the code's None. */
export function extractJsonFromText(raw: string): { value: unknown } | undefined {
  const text = pythonStrip(raw);
  const whole = pythonJsonLoads(text);
  if (whole) return whole;
  if (text.startsWith('```')) {
    const fenced = pythonJsonLoads(withoutCodeFence(text));
    if (fenced) return fenced;
  }
  for (const pattern of [ANSWER_OBJECT, ACTION_OBJECT]) {
    const match = pattern.exec(text);
    const parsed = match ? pythonJsonLoads(match[0]) : undefined;
    if (parsed) return parsed;
  }
  return firstBalancedObject(text);
}

/** Strategy 5: brace counting from the first `{` at depth 0; a candidate that does not parse is skipped. */
function firstBalancedObject(text: string): { value: unknown } | undefined {
  let depth = 0;
  let start: number | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (char === '}') {
      depth -= 1;
      if (depth === 0 && start !== undefined) {
        const parsed = pythonJsonLoads(text.slice(start, i + 1));
        if (parsed) return parsed;
        start = undefined;
      }
    }
  }
  return undefined;
}

/** CheckAgent.decompose's reading: fences stripped, then json.loads, else the code's fallback. */
export const RELEASED_FAILED_DECOMPOSITION = { triplets: [], topic: 'unknown' } as const;

export function releasedDecompositionOf(content: string): { decomposition: unknown; failed: boolean } {
  let text = pythonStrip(content);
  if (text.startsWith('```')) text = withoutCodeFence(text);
  const parsed = pythonJsonLoads(text);
  return parsed ? { decomposition: parsed.value, failed: false } : { decomposition: { ...RELEASED_FAILED_DECOMPOSITION, triplets: [] }, failed: true };
}
