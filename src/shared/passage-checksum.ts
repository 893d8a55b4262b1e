/**
 * An order-independent checksum of a set of passages: the sum, modulo 2^64, of the first 64 bits of
 * sha256(id, content) of each. Any passage missing, extra, duplicated or changed changes it (a
 * duplicate adds its term twice). Hex strings, so workflows (sandbox-safe BigInt) can add them up.
 */
const MODULUS = 1n << 64n;

export const EMPTY_CHECKSUM = '0000000000000000';

export function addChecksums(a: string, b: string): string {
  return ((BigInt(`0x${a}`) + BigInt(`0x${b}`)) % MODULUS).toString(16).padStart(16, '0');
}

/** One passage's term from the first 16 hex digits of its sha256. */
export function checksumTerm(sha256Hex: string): bigint {
  return BigInt(`0x${sha256Hex.slice(0, 16)}`);
}

export function checksumOfTerms(terms: Iterable<bigint>): string {
  let sum = 0n;
  for (const term of terms) sum = (sum + term) % MODULUS;
  return sum.toString(16).padStart(16, '0');
}
