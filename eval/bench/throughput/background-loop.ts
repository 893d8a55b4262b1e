/**
 * A loop that runs while a window is measured. Its failure must stop the measurement and reach the
 * caller (whose `finally` stops the simulator and the dev server), not end the process as an
 * unhandled rejection that leaves them running.
 */
export interface BackgroundLoop {
  /** Throws the loop's error, once it has failed. */
  check(): void;
  /** Settles when the loop ends, failed or not. */
  settled: Promise<void>;
}

export function inBackground(body: () => Promise<void>): BackgroundLoop {
  let failure: { error: unknown } | undefined;
  const settled = body().catch((error: unknown) => {
    failure = { error };
  });
  return {
    check() {
      if (failure) throw failure.error;
    },
    settled,
  };
}
