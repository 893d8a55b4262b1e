import { z } from 'zod';
import { defineProvider } from '../define-provider';
import { endpointUrl, fetchProviderJson } from '../provider-http';
import { type ProviderConnection } from '../types';
import { type ScholarResult, type ScholarSearchProvider } from './types';
import { yearIn } from './year';

const EUTILS_BASE_URL = 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils';

export type PubMedConfig = ProviderConnection & {
  /** Optional NCBI key (raises the rate limit from 3 to 10 requests per second). */
  apiKey?: string;
  /** NCBI asks clients to identify themselves with tool and email. */
  tool?: string;
  email?: string;
};

const EsearchResponse = z.object({ esearchresult: z.object({ idlist: z.array(z.string()) }) });

const EsummaryResponse = z.object({ result: z.object({ uids: z.array(z.string()) }).catchall(z.unknown()) });

const DocumentSummary = z.object({
  uid: z.string(),
  title: z.string(),
  pubdate: z.string().default(''),
  fulljournalname: z.string().optional(),
  source: z.string().optional(),
  authors: z.array(z.object({ name: z.string() })).default([]),
});

/**
 * PubMed through E-utilities: esearch finds PMIDs, esummary describes them. esummary carries no
 * abstracts, so the snippet is the citation line (journal and date).
 */
export function createPubMedProvider(config: PubMedConfig = {}): ScholarSearchProvider {
  return defineProvider<ScholarResult>('pubmed', async ({ query, limit, signal }) => {
    const ids = await searchIds(config, query, limit, signal);
    if (ids.length === 0) return [];
    const summaries = await fetchSummaries(config, ids, signal);
    return summaries.map((doc) => {
      const venue = doc.fulljournalname ?? doc.source;
      return {
        title: doc.title.replace(/\.$/, ''),
        url: `https://pubmed.ncbi.nlm.nih.gov/${doc.uid}/`,
        snippet: [venue, doc.pubdate].filter(Boolean).join(', '),
        authors: doc.authors.map((author) => author.name),
        year: yearIn(doc.pubdate),
        venue,
      };
    });
  });
}

async function searchIds(config: PubMedConfig, query: string, limit: number, signal?: AbortSignal): Promise<string[]> {
  const body = await fetchProviderJson(eutilsRequest(config, '/esearch.fcgi', { term: query, retmax: String(limit), sort: 'relevance' }, signal), EsearchResponse);
  return body.esearchresult.idlist;
}

async function fetchSummaries(config: PubMedConfig, ids: string[], signal?: AbortSignal): Promise<z.infer<typeof DocumentSummary>[]> {
  const body = await fetchProviderJson(eutilsRequest(config, '/esummary.fcgi', { id: ids.join(',') }, signal), EsummaryResponse);
  // Keep esummary's order (that of `uids`); ids it could not describe come back as { error } and are skipped.
  return body.result.uids.flatMap((uid) => {
    const parsed = DocumentSummary.safeParse(body.result[uid]);
    return parsed.success ? [parsed.data] : [];
  });
}

function eutilsRequest(config: PubMedConfig, path: string, params: Record<string, string>, signal?: AbortSignal) {
  const url = endpointUrl(config, EUTILS_BASE_URL, path);
  const identity = { ...(config.tool ? { tool: config.tool } : {}), ...(config.email ? { email: config.email } : {}), ...(config.apiKey ? { api_key: config.apiKey } : {}) };
  url.search = new URLSearchParams({ db: 'pubmed', retmode: 'json', ...params, ...identity }).toString();
  return { provider: 'pubmed', url, signal, connection: config, secrets: config.apiKey ? [config.apiKey] : [] };
}
