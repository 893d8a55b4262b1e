/** One document of a text collection, whatever file format it came from. */
export interface CorpusDocument {
  id: string;
  title: string;
  text: string;
  /** Sentences in source order, or null when the source gives one unsplit paragraph. */
  sentences: string[] | null;
  source: string;
  /** Where the document was found (recorded web pages), when the source says. */
  url?: string;
}

/** `verity`: the project's corpus files; `fever-wiki-pages`: FEVER's public wiki-pages dump. */
export const CORPUS_FORMATS = ['auto', 'verity', 'fever-wiki-pages'] as const;
export type CorpusFormat = (typeof CORPUS_FORMATS)[number];
