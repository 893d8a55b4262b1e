import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** Below this many characters Readability's pick is likely boilerplate; the whole body is used instead. */
const MIN_ARTICLE_CHARS = 200;
const BLOCK_END = /<\/(p|div|h[1-6]|li|blockquote|pre|tr|section|article|header|footer|ul|ol|table|figcaption)>|<br\s*\/?>/gi;

export interface ExtractedText {
  title: string;
  text: string;
}

/** Main text of an HTML page via Readability (dropping nav, ads, footers), else the plain body text. */
export function extractMainText(html: string): ExtractedText {
  const { document } = parseHTML(html);
  const title = (document.title ?? '').trim();
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  const articleText = article?.content ? htmlToText(article.content) : '';
  if (articleText.length >= MIN_ARTICLE_CHARS) return { title: article?.title?.trim() || title, text: articleText };
  return { title, text: htmlToText(html) };
}

/** Text content with one line per block element and no script or style. */
export function htmlToText(html: string): string {
  const marked = html.replace(BLOCK_END, '$&\n');
  const { document } = parseHTML(/<body[\s>]/i.test(html) ? marked : `<!doctype html><html><body>${marked}</body></html>`);
  for (const element of document.querySelectorAll('script, style, noscript, template, head')) element.remove();
  return tidyWhitespace(document.body?.textContent ?? '');
}

function tidyWhitespace(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
