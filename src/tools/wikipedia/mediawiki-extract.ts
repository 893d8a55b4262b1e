import type { WikiSection } from './page';

const HEADING = /^(={2,6})\s*(.+?)\s*\1\s*$/;

export interface ParsedExtract {
  summary: string;
  /** The extract with `== Heading ==` markers turned into plain title lines. */
  text: string;
  sections: WikiSection[];
}

/** Splits a plain-text extract (`explaintext`, `exsectionformat=wiki`) into its lead and a section tree. */
export function parseExtract(extract: string): ParsedExtract {
  const lead: string[] = [];
  const roots: WikiSection[] = [];
  const open: WikiSection[] = [];
  const bodies = new Map<WikiSection, string[]>();
  for (const line of extract.split('\n')) {
    const heading = HEADING.exec(line);
    if (!heading) {
      const current = open[open.length - 1];
      (current ? (bodies.get(current) ?? []) : lead).push(line);
      continue;
    }
    const section: WikiSection = { title: heading[2] ?? '', level: (heading[1] ?? '==').length - 2, text: '', sections: [] };
    bodies.set(section, []);
    while (open.length > 0 && (open[open.length - 1]?.level ?? 0) >= section.level) open.pop();
    const parent = open[open.length - 1];
    (parent ? parent.sections : roots).push(section);
    open.push(section);
  }
  for (const [section, lines] of bodies) section.text = lines.join('\n').trim();
  return {
    summary: lead.join('\n').trim(),
    text: extract.replace(/^(={2,6})\s*(.+?)\s*\1\s*$/gm, '$2').trim(),
    sections: roots,
  };
}
