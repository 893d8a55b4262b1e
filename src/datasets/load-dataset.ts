import { RecordError, type DatasetClaim } from './dataset-claim';
import { detectDatasetFormat } from './detect-format';
import type { DatasetFormat, FormatOptions, FormatReaderFactory } from './format-reader';
import { averitecReader } from './formats/averitec';
import { feverReader } from './formats/fever';
import { feverousReader } from './formats/feverous';
import { fireReader } from './formats/fire';
import { hoverReader } from './formats/hover';
import { liarReader } from './formats/liar';
import { politifactReader } from './formats/politifact';
import { scifactReader } from './formats/scifact';
import { verityReader } from './formats/verity';
import { describePosition, type RecordPosition, requireRegularFile } from './record-sources';

const READERS: Record<DatasetFormat, FormatReaderFactory> = {
  verity: verityReader,
  fever: feverReader,
  hover: hoverReader,
  scifact: scifactReader,
  feverous: feverousReader,
  averitec: averitecReader,
  fire: fireReader,
  liar: liarReader,
  politifact: politifactReader,
};

export const MAX_REPORTED_MALFORMED = 100;

export interface LoadDatasetOptions extends FormatOptions {
  /** Default 'auto': detected from the file name and content. */
  format?: DatasetFormat | 'auto';
  /** Fail on the first malformed record instead of skipping it. */
  strict?: boolean;
}

export interface MalformedRecord {
  position: RecordPosition;
  reason: string;
}

export interface LoadStats {
  format: DatasetFormat | undefined;
  loaded: number;
  /** Records that are not claims by design (FEVEROUS's header line). */
  ignored: number;
  malformedCount: number;
  /** The first MAX_REPORTED_MALFORMED malformed records. */
  malformed: MalformedRecord[];
}

export class DatasetFormatError extends Error {
  constructor(readonly file: string, readonly record: MalformedRecord) {
    super(`${file}: ${describePosition(record.position)}: ${record.reason}`);
  }
}

export function emptyLoadStats(): LoadStats {
  return { format: undefined, loaded: 0, ignored: 0, malformedCount: 0, malformed: [] };
}

// A parser may also trip over an unexpected shape (TypeError); that too is a malformed record.
function reasonOf(err: unknown): string {
  return err instanceof RecordError ? err.message : `unreadable record (${String(err)})`;
}

/** Streams the claims of a dataset file; malformed records (and duplicate ids) are counted in `stats` or, when strict, thrown. */
export async function* streamDataset(file: string, options: LoadDatasetOptions = {}, stats: LoadStats = emptyLoadStats()): AsyncGenerator<DatasetClaim> {
  requireRegularFile(file);
  const format = !options.format || options.format === 'auto' ? await detectDatasetFormat(file) : options.format;
  stats.format = format;
  const reader = await READERS[format](file, options);
  const seenIds = new Set<string>();
  const reject = (record: MalformedRecord): void => {
    if (options.strict) throw new DatasetFormatError(file, record);
    stats.malformedCount += 1;
    if (stats.malformed.length < MAX_REPORTED_MALFORMED) stats.malformed.push(record);
  };
  for await (const record of reader.records(file)) {
    if (!record.ok) {
      reject({ position: record.position, reason: record.reason });
      continue;
    }
    let claim: DatasetClaim | null;
    try {
      claim = reader.parse(record.value, record.position);
    } catch (err) {
      reject({ position: record.position, reason: reasonOf(err) });
      continue;
    }
    if (claim === null) {
      stats.ignored += 1;
    } else if (seenIds.has(claim.id)) {
      reject({ position: record.position, reason: `duplicate id ${claim.id}` });
    } else {
      seenIds.add(claim.id);
      stats.loaded += 1;
      yield claim;
    }
  }
}

/** Loads a whole dataset file into memory. */
export async function loadDataset(file: string, options: LoadDatasetOptions = {}): Promise<{ claims: DatasetClaim[]; stats: LoadStats }> {
  const stats = emptyLoadStats();
  const claims: DatasetClaim[] = [];
  for await (const claim of streamDataset(file, options, stats)) claims.push(claim);
  return { claims, stats };
}
