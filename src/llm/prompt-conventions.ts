/**
 * Plain-text markers that method prompts use, so that any model (and the built-in simulator,
 * which has no understanding of language) can find the claim and the evidence in a prompt.
 * Methods render prompts with the helpers below; the simulator reads them with the parsers.
 * New markers (e.g. for later methods) are added here, next to their parser.
 */

export const CLAIM_PREFIX = 'Claim: ';
export const EVIDENCE_HEADER = 'Evidence:';
/** Appended by the gateway when a server does not take `response_format: json_schema` (the json_object and prompt forms). */
export const JSON_SCHEMA_INSTRUCTION = 'Answer with a single JSON object that matches this JSON schema:';

export interface EvidencePassage {
  id: string;
  text: string;
}

const PASSAGE_LINE = /^\[([^\]\n]+)\]\s?(.*)$/;

/** One line, so that the claim can be found again by its prefix. */
export function renderClaim(claim: string): string {
  return `${CLAIM_PREFIX}${oneLine(claim)}`;
}

export function renderEvidence(passages: readonly EvidencePassage[]): string {
  return [EVIDENCE_HEADER, ...passages.map((p) => `[${oneLine(p.id)}] ${oneLine(p.text)}`)].join('\n');
}

/** The schema's name goes in as its `title`, so the model (and the simulator) knows which answer is meant. */
export function renderJsonSchemaInstruction(schema: unknown, name?: string): string {
  const titled = name && schema !== null && typeof schema === 'object' ? { title: name, ...schema } : schema;
  return `${JSON_SCHEMA_INSTRUCTION}\n\`\`\`json\n${JSON.stringify(titled)}\n\`\`\``;
}

/** The last claim line in the text (later messages override earlier ones). */
export function parseClaim(text: string): string | undefined {
  const claims = text
    .split('\n')
    .filter((line) => line.startsWith(CLAIM_PREFIX))
    .map((line) => line.slice(CLAIM_PREFIX.length).trim());
  return claims.at(-1);
}

/** All passages of all evidence blocks; a block ends at the first line that is not a passage. */
export function parseEvidence(text: string): EvidencePassage[] {
  const passages: EvidencePassage[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    if (line.trim() === EVIDENCE_HEADER) {
      inBlock = true;
      continue;
    }
    const match = inBlock ? PASSAGE_LINE.exec(line) : null;
    if (match) passages.push({ id: match[1]!.trim(), text: match[2]!.trim() });
    else inBlock = false;
  }
  return passages;
}

export function parseJsonSchemaInstruction(text: string): unknown {
  const at = text.lastIndexOf(JSON_SCHEMA_INSTRUCTION);
  if (at < 0) return undefined;
  const fenced = /```json\n([\s\S]*?)\n```/.exec(text.slice(at));
  if (!fenced) return undefined;
  try {
    return JSON.parse(fenced[1]!) as unknown;
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
