/** Query parameters that carry credentials (`?api_key=`, `?token=`, Azure SAS `sig`, …). */
const SECRET_PARAM = /^(api[-_]?key|key|apikey|token|access[-_]?token|auth|authorization|password|passwd|pwd|secret|client[-_]?secret|sig|signature)$/i;
const MASK = 'redacted';

/** A URL without user info and with the values of credential query parameters masked; text that is no URL is returned as it is. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  parsed.username = '';
  parsed.password = '';
  for (const name of [...new Set(parsed.searchParams.keys())]) if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, MASK);
  return parsed.toString();
}

/** Every http(s) URL inside `text`, redacted (error messages that quote an endpoint). */
export function redactUrlsIn(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (url) => {
    const trailing = /[).,;:]+$/.exec(url)?.[0] ?? '';
    return redactUrl(url.slice(0, url.length - trailing.length)) + trailing;
  });
}

/** Values shorter than this are placeholders (OPENAI_API_KEY=sim), not secrets: redacting them would maul ordinary words. */
export const MIN_SECRET_CHARS = 8;

/**
 * `text` with every whole-token occurrence of each secret (a value of at least MIN_SECRET_CHARS,
 * not inside a longer run of letters and digits) replaced by "[redacted]".
 */
export function redactSecretValues(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_SECRET_CHARS) continue;
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    result = result.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), '[redacted]');
  }
  return result;
}
