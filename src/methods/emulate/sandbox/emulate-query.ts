/** Cleaning a generated search query. Sandbox-safe: workflows import it. */

/**
 * codeCompat: the code removes every `"` and `'` ("Newton's" → "Newtons") and does not trim.
 * Otherwise (spec §7.17): surrounding whitespace and quotes only.
 */
export function cleanQuery(query: string, codeCompat: boolean): string {
  if (codeCompat) return query.replace(/["']/g, '');
  return query.trim().replace(/^["'“”‘’]+|["'“”‘’]+$/g, '').trim();
}
