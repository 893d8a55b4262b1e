/** The first plausible publication year (1800–2099) in a date or citation string. */
export function yearIn(text: string | undefined): number | undefined {
  const match = text === undefined ? null : /\b(18|19|20)\d{2}\b/.exec(text);
  return match ? Number(match[0]) : undefined;
}
