import { type IncomingMessage } from 'node:http';
import { PageTooLargeError } from './errors';

/** Reads the body, aborting the download as soon as it (or its declared length) exceeds `maxBytes`. */
export async function readLimited(response: IncomingMessage, url: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new PageTooLargeError(url, maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      response.destroy();
      throw new PageTooLargeError(url, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
