/** Replay mode and the request was never recorded: retrying cannot help, and the network is off limits. */
export class CacheMissError extends Error {
  override name = 'CacheMissError';
  readonly retryable = false;
  constructor(
    readonly cache: string,
    readonly key: string,
    what: string,
  ) {
    super(`${cache} miss in replay mode for ${what} (key ${key.slice(0, 16)}…): record it first with VERITY_WEB_CACHE=readwrite`);
  }
}
