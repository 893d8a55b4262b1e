import { describe, expect, it } from 'vitest';
import { extractMainText, htmlToText } from '../../src/pages/extract-text';
import { fixture } from '../fixtures/http/fixture-server';

describe('extractMainText', () => {
  const { title, text } = extractMainText(fixture('page-article.html').toString('utf8'));

  it('keeps the article, one paragraph per line', () => {
    // Readability drops the site-name suffix of <title>.
    expect(title).toBe('Eiffel Tower grows six metres with new antenna');
    expect(text).toContain('The Eiffel Tower in Paris grew by six metres on Tuesday');
    expect(text).toContain('A landmark that keeps changing');
    expect(text).toContain('one of the most visited paid monuments in the world.');
    expect(text).toMatch(/330 metres\.\n+The new DAB\+ antenna/);
  });

  it('drops navigation, ads, scripts, styles and footer', () => {
    for (const boilerplate of ['Subscribe for $1 a week', 'mattress', 'Most read', 'All rights reserved', 'dataLayer', 'min-height', 'Cookie settings']) {
      expect(text).not.toContain(boilerplate);
    }
  });

  it('falls back to the plain body text when there is no article', () => {
    const page = '<html><head><title>Short</title><script>var x = 1;</script></head><body><div>Only a line.</div><p>And another.</p></body></html>';
    expect(extractMainText(page)).toEqual({ title: 'Short', text: 'Only a line.\nAnd another.' });
  });

  it('htmlToText handles fragments', () => {
    expect(htmlToText('<p>a &amp; b</p><p>c<br>d</p>')).toBe('a & b\nc\nd');
  });
});
