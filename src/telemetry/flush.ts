/**
 * Flushing without loading the tracing SDK: the pipeline (tracing.ts, loaded only when tracing is
 * on) registers its flush here, and the CLI and the worker call `flushTracing` before they stop.
 */
const flushers: (() => Promise<void>)[] = [];

export function onFlushTracing(flush: () => Promise<void>): void {
  flushers.push(flush);
}

/** Sends the spans still buffered (before a CLI exits or a worker stops); never throws. */
export async function flushTracing(): Promise<void> {
  await Promise.all(flushers.map((flush) => flush().catch(() => undefined)));
}
