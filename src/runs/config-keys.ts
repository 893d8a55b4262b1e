import type { z } from 'zod';
import { METHOD_NAMES } from '../methods/registry';
import { runConfigSchema, runDatasetSchema } from './run-manifest';

/** The closest of `candidates` to `word` (edit distance at most a third of its length, at least 2), if any. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(word.length / 3)) ? best.candidate : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** `unknown key "budjet"; did you mean "budget"?` (or the known keys when nothing is close). */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const suggestion = didYouMean(key, known);
  return `unknown key "${key}"; ${suggestion ? `did you mean "${suggestion}"?` : `known keys: ${known.join(', ')}`}`;
}

const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(runConfigSchema.shape),
  datasets: Object.keys(runDatasetSchema.shape),
  budget: ['usd', 'tokens'],
  limits: ['tokens', 'usd', 'seconds'],
  policies: ['maxFailureRate', 'minVerifications', 'failStuckAfterSeconds'],
  batch: ['models', 'maxRequests', 'maxWaitSeconds', 'pollSeconds', 'maxSubmissions'],
};

/** The first problem of a run config as one line: `path: message`, unknown keys with a "did you mean". */
export function describeRunConfigIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.filter((part) => typeof part !== 'number').join('.');
  const at = issue.path.join('.') || '(root)';
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return `${at}: ${unknownKeyMessage(key, KNOWN_KEYS[where] ?? [])}`;
  }
  return `${at}: ${issue.message}`;
}

/** `parameters` may only name methods (and `rag`): a misspelt method's settings would be ignored. */
export function findUnknownParameterKey(parameters: Record<string, unknown>): string | null {
  const key = Object.keys(parameters).find((name) => !(METHOD_NAMES as readonly string[]).includes(name));
  return key === undefined ? null : `parameters: ${unknownKeyMessage(key, METHOD_NAMES)}`;
}
