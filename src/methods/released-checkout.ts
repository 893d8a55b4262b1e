/**
 * Reads prompt files from a user's checkout of a paper's released code, at verification start, for
 * methods whose released prompts may not be copied into verity (no license). The checkout must be at
 * the pinned commit with those files unmodified, so the text verity renders is the text the paper ran.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export class ReleasedCheckoutError extends Error {}

/** The files' contents, by key; one-line errors naming the path and what to do. */
export function readReleasedFiles<K extends string>(checkout: string, release: { repository: string; commit: string }, files: Readonly<Record<K, string>>): Record<K, string> {
  const root = path.resolve(checkout);
  const fix = `clone https://github.com/${release.repository} and check out ${release.commit.slice(0, 7)}`;
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new ReleasedCheckoutError(`released prompts: ${root} is not a directory (${fix})`);
  let head: string;
  try {
    head = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    throw new ReleasedCheckoutError(`released prompts: ${root} is not a git checkout (${fix})`);
  }
  if (head !== release.commit) throw new ReleasedCheckoutError(`released prompts: ${root} is at ${head.slice(0, 7)}, not ${release.commit.slice(0, 7)} (git -C ${root} checkout ${release.commit.slice(0, 7)})`);
  const relative = Object.values<string>(files);
  const changed = execFileSync('git', ['-C', root, 'status', '--porcelain', '--', ...relative], { encoding: 'utf8' }).trimEnd();
  if (changed) throw new ReleasedCheckoutError(`released prompts: ${root} has local changes to ${changed.split('\n').map((l) => l.slice(3)).join(', ')} (git -C ${root} checkout -- .)`);
  const out = {} as Record<K, string>;
  for (const [key, file] of Object.entries(files) as [K, string][]) {
    const full = path.join(root, file);
    if (!fs.existsSync(full)) throw new ReleasedCheckoutError(`released prompts: ${full} is missing (${fix})`);
    out[key] = fs.readFileSync(full, 'utf8');
  }
  return out;
}

/**
 * The settings schemas' transform for `releasedPromptsFrom: <checkout>`: the prompts `load` reads from
 * it become `releasedPrompts`; a wrong checkout is a settings error on that key (one line), not a crash.
 */
export function releasedPromptsFromCheckout<P>(load: (checkout: string) => P) {
  return <S extends { releasedPromptsFrom?: string | undefined }>(settings: S, ctx: z.RefinementCtx): Omit<S, 'releasedPromptsFrom'> & { releasedPrompts?: P } => {
    const { releasedPromptsFrom, ...rest } = settings;
    if (releasedPromptsFrom === undefined) return rest;
    try {
      return { ...rest, releasedPrompts: load(releasedPromptsFrom) };
    } catch (err) {
      if (!(err instanceof ReleasedCheckoutError)) throw err;
      ctx.issues.push({ code: 'custom', message: err.message, input: releasedPromptsFrom, path: ['releasedPromptsFrom'] });
      return z.NEVER;
    }
  };
}
