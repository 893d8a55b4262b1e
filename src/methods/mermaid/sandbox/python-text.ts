/**
 * Python's text semantics where MERMAID's released code relies on them (str.format, json.dumps,
 * str.strip, slicing by code point, str() and repr()), so verity renders the characters it rendered.
 * Pure and sandbox-safe: workflows import it.
 */

/** `template.format(**values)`: `{name}` replaced, `{{` and `}}` become single braces. */
export function pythonFormat(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = values[name ?? ''];
    if (value === undefined) throw new Error(`str.format: no value for {${name}}`);
    return value;
  });
}

/** A JSON value as `json.dumps(value, ensure_ascii=False)` writes it: ", " and ": " separators, non-ASCII kept. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  // Python escapes the same characters (", \, and below U+0020, in lower-case hex) when ensure_ascii is off.
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, inner]) => `${JSON.stringify(key)}: ${pythonJsonDumps(inner)}`)
    .join(', ')}}`;
}

/** The characters `str.strip()` removes (str.isspace), which are not JavaScript's `trim()` set. */
const PYTHON_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING_SPACE = new RegExp(`^[${PYTHON_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${PYTHON_SPACE}]+$`);

export function pythonStrip(text: string): string {
  return text.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
}

/** `text[:max]`: Python counts code points, not UTF-16 units. */
export function pythonPrefix(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max).join('');
}

export function pythonLength(text: string): number {
  return Array.from(text).length;
}

/** `str(value)` of a value json.loads returned, as an f-string shows it (containers as their repr). */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  return pythonReprOfJson(value);
}

/** `repr()` of a value json.loads returned (str, int, float, bool, None, list, dict). */
export function pythonReprOfJson(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : JSON.stringify(value);
  if (typeof value === 'string') return pythonRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonReprOfJson).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, inner]) => `${pythonRepr(key)}: ${pythonReprOfJson(inner)}`)
    .join(', ')}}`;
}

/** Characters `str.isprintable()` rejects: categories C* and Z* except the ASCII space. */
const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;

/** `repr(text)`: single quotes unless the text has ' and no ", backslash escapes for the rest. */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\t') out += '\\t';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char !== ' ' && NOT_PRINTABLE.test(char)) out += escapeCodePoint(char.codePointAt(0)!);
    else out += char;
  }
  return out + quote;
}

function escapeCodePoint(code: number): string {
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Python's truth value of a value json.loads returned. */
export function pythonTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** `json.loads`, undefined where it raises (it also accepts NaN and Infinity, which JSON.parse does not: README parity table). */
export function pythonJsonLoads(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
