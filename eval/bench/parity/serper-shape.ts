import { z } from 'zod';
import type { WebResult } from '../../../src/search/types';

/** The body EMULATE and FIRE POST to google.serper.dev/search. */
export const serperRequestSchema = z.object({ q: z.string().min(1), num: z.number().int().positive().optional() }).passthrough();

export interface SerperOrganic {
  title: string;
  link: string;
  snippet: string;
  position: number;
}

/** Serper's search JSON: `organic` results ranked from 1, as the released code reads them. */
export function toSerperResponse(query: string, results: Array<Pick<WebResult, 'title' | 'url' | 'snippet'>>): {
  searchParameters: { q: string; type: 'search'; engine: 'google' };
  organic: SerperOrganic[];
} {
  return {
    searchParameters: { q: query, type: 'search', engine: 'google' },
    organic: results.map((result, index) => ({ title: result.title, link: result.url, snippet: result.snippet, position: index + 1 })),
  };
}
