import { createHash } from 'node:crypto';
import { checksumOfTerms, checksumTerm } from '../shared/passage-checksum';

/** The checksum term of one stored passage: its `_id` and the `content` BM25 searches. */
export function passageTerm(id: string, content: string): bigint {
  return checksumTerm(createHash('sha256').update(id).update('\n').update(content).digest('hex'));
}

export function checksumOfPassages(passages: Iterable<{ id: string; content: string }>): string {
  const terms: bigint[] = [];
  for (const passage of passages) terms.push(passageTerm(passage.id, passage.content));
  return checksumOfTerms(terms);
}
