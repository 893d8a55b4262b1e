export const READABLE_CONTENT_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml', 'text/plain']);

export interface ContentType {
  mediaType: string;
  charset?: string;
}

export function parseContentType(header: string | undefined): ContentType {
  const [mediaType = '', ...parameters] = (header ?? '').split(';').map((part) => part.trim());
  const charset = parameters.find((parameter) => parameter.toLowerCase().startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  return { mediaType: mediaType.toLowerCase(), charset: charset?.toLowerCase() };
}

/** Decodes with the declared charset, falling back to UTF-8 for missing or unknown labels. */
export function decodeBody(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
