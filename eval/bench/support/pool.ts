import { CommandProgress, type ProgressOptions } from '../../../src/cli/progress';

export interface PoolOptions {
  /** Shows done / total, rate, ETA and failures of the items on stderr (a bar on a terminal, else a line every `intervalMs`). */
  progress?: Pick<ProgressOptions, 'label' | 'unit' | 'intervalMs' | 'stream' | 'now'>;
}

/** Runs `work` over `items`, at most `concurrency` at a time; a `work` that throws counts as failed and rejects the pool. */
export async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>, options: PoolOptions = {}): Promise<void> {
  const progress = options.progress ? new CommandProgress(options.progress) : undefined;
  let next = 0;
  let done = 0;
  let failed = 0;
  const report = () => progress?.update({ done, total: items.length, failed });
  report();
  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, items.length) }, async () => {
        while (next < items.length) {
          try {
            await work(items[next++]!);
          } catch (err) {
            failed += 1;
            throw err;
          } finally {
            done += 1;
            report();
          }
        }
      }),
    );
  } finally {
    progress?.finish();
  }
}
