import { z } from 'zod';
import { chunkText } from '../pages/chunk-text';
import type { Page } from '../pages/read-page';
import { OBSERVATION_MAX_CHARS } from '../shared/constants';
import { ToolError } from './errors';
import { defineTool } from './tool';

/** Reads a page's main text: the SSRF-safe live reader, or recorded pages offline. */
export type ReadPage = (url: string, signal?: AbortSignal) => Promise<Page>;

/** Leaves room for the JSON around the chunk, so one chunk fits in one observation. */
export const PAGE_CHUNK_CHARS = OBSERVATION_MAX_CHARS - 400;

export function createReadPageTool(readPage: ReadPage) {
  return defineTool({
    name: 'read_page',
    description: `Read the main text of a web page, in chunks of about ${PAGE_CHUNK_CHARS} characters; ask for the next chunk to read on.`,
    input: z.object({
      url: z.url({ protocol: /^https?$/ }).describe('Absolute http(s) URL'),
      chunk: z.number().int().min(1).default(1).describe('1-based chunk number (default 1)'),
    }),
    async run({ url, chunk }, { signal }) {
      const page = await readPage(url, signal);
      const chunks = chunkText(page.text, { maxChars: PAGE_CHUNK_CHARS });
      const text = chunks[chunk - 1]?.text;
      if (text === undefined && chunk > 1) throw new ToolError('invalidArguments', `chunk ${chunk} does not exist; ${url} has ${chunks.length} chunks`);
      return { url: page.url, title: page.title, chunk, chunks: chunks.length, text: text ?? '' };
    },
  });
}
