import { InvalidArgumentError } from 'commander';

/** A run id argument: an empty one is a usage error (Elasticsearch answers a raw 405 for an empty document id). */
export function runIdArgument(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('a run id must not be empty');
  return value;
}
