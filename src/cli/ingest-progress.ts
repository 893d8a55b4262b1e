import type { IngestProgress } from '../corpus/ingest';
import { CommandProgress } from './progress';

/** Progress of a corpus ingest in MB of the file read, with documents, passages and failures (malformed lines, rejected passages). */
export function ingestProgress(label: string, intervalMs: number): { onProgress: (update: IngestProgress) => void; progress: CommandProgress } {
  const progress = new CommandProgress({ label, unit: 'MB', scale: 1e6, intervalMs });
  const onProgress = (update: IngestProgress) =>
    progress.update({
      done: update.bytesRead,
      total: update.totalBytes,
      failed: update.malformed + update.rejected,
      detail: `${update.documents} documents, ${update.passages} passages${update.embedded > 0 ? `, ${update.embedded} embedded` : ''}`,
    });
  return { onProgress, progress };
}
