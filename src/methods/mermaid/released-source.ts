/**
 * MERMAID's released prompts and MCP tool names, read from a checkout of its code at the pinned commit
 * (settings `releasedPromptsFrom`): main.py's two prompt constants as Python evaluates their literals,
 * and the tool names each server file registers, in main.py's server order.
 */
import { readReleasedFiles, ReleasedCheckoutError } from '../released-checkout';
import { MERMAID_RELEASED_COMMIT, MERMAID_RELEASED_REPOSITORY, MERMAID_RELEASED_SERVERS, type MermaidReleasedPrompts } from './sandbox/released-prompts';

export function mermaidReleasedPromptsFrom(checkout: string): MermaidReleasedPrompts {
  const servers: Record<string, string> = Object.fromEntries(MERMAID_RELEASED_SERVERS.map((file, i) => [`server${i}`, file]));
  const files: Record<string, string> = readReleasedFiles(checkout, { repository: MERMAID_RELEASED_REPOSITORY, commit: MERMAID_RELEASED_COMMIT }, { main: 'main.py', ...servers });
  return {
    commit: MERMAID_RELEASED_COMMIT,
    decompose: pythonStringConstant(files.main!, 'Decomp_SYSTEM_PROMPT'),
    react: pythonStringConstant(files.main!, 'ReAct_SYSTEM_PROMPT'),
    toolNames: MERMAID_RELEASED_SERVERS.flatMap((file, i) => mcpToolNames(files[`server${i}`]!, file)),
  };
}

/** The value of `NAME = "..."`, `NAME = """..."""` or `NAME = ( "..." "..." )` (adjacent literals concatenated). */
export function pythonStringConstant(source: string, name: string): string {
  const assignment = new RegExp(`^${name}\\s*=\\s*`, 'm').exec(source);
  if (!assignment) throw new ReleasedCheckoutError(`released prompts: main.py has no ${name} (is this MERMAID's release?)`);
  let i = assignment.index + assignment[0].length;
  const parenthesized = source[i] === '(';
  if (parenthesized) i += 1;
  const parts: string[] = [];
  for (;;) {
    while (i < source.length && /\s/.test(source[i]!)) i += 1;
    if (source[i] === '#') {
      while (i < source.length && source[i] !== '\n') i += 1;
      continue;
    }
    const quote = source.startsWith('"""', i) ? '"""' : source.startsWith("'''", i) ? "'''" : source[i] === '"' || source[i] === "'" ? source[i]! : undefined;
    if (!quote) break;
    const end = closingQuote(source, i + quote.length, quote);
    parts.push(unescapePython(source.slice(i + quote.length, end)));
    i = end + quote.length;
    if (!parenthesized) break;
  }
  if (parts.length === 0 || (parenthesized && source[i] !== ')')) throw new ReleasedCheckoutError(`released prompts: main.py's ${name} is not a plain string literal`);
  return parts.join('');
}

function closingQuote(source: string, from: number, quote: string): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === '\\') i += 1;
    else if (source.startsWith(quote, i)) return i;
  }
  throw new ReleasedCheckoutError('released prompts: an unterminated string literal in main.py');
}

const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\n': '' };

/** A non-raw literal's escapes, as Python reads them (an unknown escape keeps its backslash). */
function unescapePython(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[\s\S])/g, (match, code: string) => {
    if (code in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[code]!;
    if (/^[xuU]/.test(code) && code.length > 1) return String.fromCodePoint(parseInt(code.slice(1), 16));
    if (/^[0-7]+$/.test(code)) return String.fromCodePoint(parseInt(code, 8));
    return match;
  });
}

/** `@mcp.tool(name="x", …)` (or the decorated function's name without one), in the file's order. */
export function mcpToolNames(source: string, file: string): string[] {
  const names = [...source.matchAll(/^@mcp\.tool(?:\(([\s\S]*?)\))?\s*\n\s*(?:async\s+)?def\s+(\w+)/gm)].map((match) => /\bname\s*=\s*["']([^"']+)["']/.exec(match[1] ?? '')?.[1] ?? match[2]!);
  if (names.length === 0) throw new ReleasedCheckoutError(`released prompts: ${file} registers no MCP tool`);
  return names;
}
