/** The seeded PRNG lives in src/shared/prng.ts; good enough for sampling and bootstrap. */
export { mulberry32 } from '../shared/prng';

/** A uniform integer in [0, n). */
export function randomIndex(random: () => number, n: number): number {
  return Math.floor(random() * n);
}
