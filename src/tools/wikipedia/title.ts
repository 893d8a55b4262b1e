import { replaceFeverTokens } from '../../corpus/formats';

/** A title as Wikipedia displays it: underscores as spaces, FEVER tokens as brackets, single spaces, first letter upper case. */
export function normaliseTitle(title: string): string {
  const unescaped = replaceFeverTokens(title);
  const spaced = unescaped.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The English Wikipedia URL of a title, which is what the offline corpus pages were taken from. */
export function wikipediaUrl(title: string, language = 'en'): string {
  return `https://${language}.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`;
}
