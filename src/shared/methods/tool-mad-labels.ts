/**
 * Sandbox-safe answer vocabularies of Tool-MAD's debate and judge prompts, and the parser of an
 * answer's final label (spec §8.2: the label is on the last line). No imports with runtime effect.
 */
import type { VerdictLabel } from '../constants';
import type { ToolMadLabelSetName } from './tool-mad';

export interface ToolMadLabel {
  /** As the prompt asks for it, e.g. "NOT ENOUGH INFO". */
  text: string;
  /** What verity stores. */
  verdict: VerdictLabel;
  /** Other spellings a model may use. */
  aliases: string[];
}

export type ResolvedLabelSetName = Exclude<ToolMadLabelSetName, 'auto'>;

export const TOOL_MAD_LABEL_SET_TABLE: Record<ResolvedLabelSetName, ToolMadLabel[]> = {
  fever: [
    { text: 'SUPPORTS', verdict: 'SUPPORTED', aliases: ['SUPPORTED'] },
    { text: 'REFUTES', verdict: 'REFUTED', aliases: ['REFUTED'] },
    { text: 'NOT ENOUGH INFO', verdict: 'NEI', aliases: ['NOT ENOUGH INFORMATION', 'NEI'] },
  ],
  binary: [
    { text: 'SUPPORTS', verdict: 'SUPPORTED', aliases: ['SUPPORTED'] },
    { text: 'REFUTES', verdict: 'REFUTED', aliases: ['REFUTED'] },
  ],
  // AVeriTeC's four labels; the two undecided ones both become NEI in verity (spec §10 #11).
  averitec: [
    { text: 'SUPPORTED', verdict: 'SUPPORTED', aliases: ['SUPPORTS'] },
    { text: 'REFUTED', verdict: 'REFUTED', aliases: ['REFUTES'] },
    { text: 'NOT ENOUGH EVIDENCE', verdict: 'NEI', aliases: ['NOT ENOUGH INFO', 'NOT ENOUGH INFORMATION'] },
    { text: 'CONFLICTING EVIDENCE/CHERRYPICKING', verdict: 'NEI', aliases: ['CONFLICTING EVIDENCE', 'CHERRYPICKING', 'CHERRY-PICKING'] },
  ],
};

/** `auto`: AVeriTeC's own four labels, FaVIQ's two, the three FEVER labels for everything else. */
export function resolveLabelSetName(name: ToolMadLabelSetName, dataset: string | undefined): ResolvedLabelSetName {
  if (name !== 'auto') return name;
  const key = (dataset ?? '').toLowerCase();
  if (key.includes('averitec')) return 'averitec';
  if (key.includes('faviq')) return 'binary';
  return 'fever';
}

export function labelTexts(set: ResolvedLabelSetName): string[] {
  return TOOL_MAD_LABEL_SET_TABLE[set].map((label) => label.text);
}

export function verdictOfLabel(set: ResolvedLabelSetName, text: string): VerdictLabel | null {
  return TOOL_MAD_LABEL_SET_TABLE[set].find((label) => label.text === text)?.verdict ?? null;
}

/**
 * The label an answer ends with: the last non-empty line (markdown and punctuation ignored) if it
 * names exactly one label, else the label named last anywhere in the text, else null.
 */
export function parseFinalLabel(answer: string, set: ResolvedLabelSetName): string | null {
  const lines = answer.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
  const last = lines.at(-1);
  if (last !== undefined) {
    const named = namedLabels(last, set);
    if (named.size === 1) return [...named][0]!;
  }
  let best: { text: string; at: number } | null = null;
  for (const label of TOOL_MAD_LABEL_SET_TABLE[set]) {
    for (const spelling of [label.text, ...label.aliases]) {
      const at = lastMatchIndex(answer, spelling);
      if (at >= 0 && (best === null || at > best.at)) best = { text: label.text, at };
    }
  }
  return best?.text ?? null;
}

/** The reasoning without a short final label line (spec §10 #13: statements come from the reasoning). */
export function withoutLabelLine(answer: string, set: ResolvedLabelSetName): string {
  const lines = answer.split('\n');
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  const last = lines.at(-1);
  if (last !== undefined && namedLabels(last, set).size === 1 && stripped(last).length <= longestSpelling(set) + 20) lines.pop();
  return lines.join('\n').trim();
}

function namedLabels(line: string, set: ResolvedLabelSetName): Set<string> {
  const named = new Set<string>();
  for (const label of TOOL_MAD_LABEL_SET_TABLE[set]) {
    if ([label.text, ...label.aliases].some((spelling) => lastMatchIndex(line, spelling) >= 0)) named.add(label.text);
  }
  return named;
}

function lastMatchIndex(text: string, spelling: string): number {
  const pattern = new RegExp(`(?<![A-Z])${escapeRegExp(spelling).replace(/ /g, '[\\s_]+')}(?![A-Z])`, 'g');
  let at = -1;
  for (const match of stripped(text).matchAll(pattern)) at = match.index;
  return at;
}

/** Upper case, markdown emphasis and brackets removed, so `**Supports.**` reads as SUPPORTS. */
function stripped(text: string): string {
  return text.toUpperCase().replace(/[*_`#>[\]()"'.:!]/g, ' ');
}

function longestSpelling(set: ResolvedLabelSetName): number {
  return Math.max(...TOOL_MAD_LABEL_SET_TABLE[set].flatMap((label) => [label.text, ...label.aliases]).map((s) => s.length));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
