import { type SearchProvider } from '../types';

export interface ScholarResult {
  title: string;
  url: string;
  /** The abstract when the provider returns one, else its snippet or citation line. */
  snippet: string;
  authors: string[];
  year?: number;
  /** Journal, conference or repository. */
  venue?: string;
  source: string;
  position: number;
}

export type ScholarSearchProvider = SearchProvider<ScholarResult>;
