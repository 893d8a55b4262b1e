import { InvalidArgumentError } from 'commander';
import { CorpusFormatError } from '../corpus/reader';
import { MAX_SEARCH_K } from '../retrieval';
import { isEsUnreachable } from '../retrieval/errors';
import { CliError } from './errors';
import { esUnreachableLine } from './service-lines';

/** Turns failures a user can fix into one-line CLI errors with the right exit code. */
export function toCliError(err: unknown, esUrl: string): unknown {
  if (isEsUnreachable(err)) {
    return new CliError(esUnreachableLine(esUrl, (err as Error).message), 1);
  }
  if (err instanceof CorpusFormatError) return new CliError(`${err.message}; rerun without --strict to skip bad lines`, 2);
  return err;
}

/** A whole number above 0 for a commander option; anything else is refused with one line. */
export function parsePositiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('expected a whole number above 0');
  return parsed;
}

/** `-k` as the retrieval accepts it (1..MAX_SEARCH_K), refused here rather than inside the workflow. */
export function parseTopK(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > MAX_SEARCH_K) throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_SEARCH_K}`);
  return parsed;
}
