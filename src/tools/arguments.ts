import { z } from 'zod';

/** An integer argument with a default; values out of range are clamped (as MediaWiki clamps `srlimit`), not rejected. */
export function clampedInt(fallback: number, max: number) {
  return z
    .preprocess((value) => (typeof value === 'number' ? Math.min(Math.max(Math.trunc(value), 1), max) : value), z.number().int().min(1).max(max))
    .default(fallback);
}

export const queryArgument = z.string().trim().min(1).describe('Search terms');
