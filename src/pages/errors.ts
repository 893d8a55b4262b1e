/** Base class of every page-reading failure. */
export class PageReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The URL (or a redirect target) uses a forbidden scheme or points at an internal address. */
export class BlockedUrlError extends PageReadError {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`blocked URL ${url}: ${reason}`);
  }
}

export class PageTooLargeError extends PageReadError {
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`page ${url} is larger than ${maxBytes} bytes`);
  }
}

export class UnsupportedContentTypeError extends PageReadError {
  constructor(
    readonly url: string,
    readonly contentType: string,
  ) {
    super(`page ${url} has unsupported content type "${contentType}"${contentType === 'application/pdf' ? ' (PDF reading is not supported yet)' : ''}`);
  }
}

export class FetchTimeoutError extends PageReadError {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`fetching ${url} took longer than ${timeoutMs} ms`);
  }
}

/** Non-2xx answer, too many redirects, or a connection failure. */
export class PageFetchError extends PageReadError {
  constructor(
    readonly url: string,
    message: string,
    readonly status?: number,
  ) {
    super(`fetching ${url} failed: ${message}`);
  }
}

/** Timeouts, connection failures, 429 and 5xx may succeed later; blocked, oversized or unsupported pages never do. */
export function isRetryablePageError(err: unknown): boolean {
  if (err instanceof FetchTimeoutError) return true;
  if (!(err instanceof PageFetchError)) return false;
  return err.status === undefined || err.status === 429 || err.status >= 500;
}
