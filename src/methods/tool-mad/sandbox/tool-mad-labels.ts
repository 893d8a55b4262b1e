/**
 * Sandbox-safe answer vocabularies of Tool-MAD's debate and judge prompts, and the parser of an
 * answer's final label (spec §8.2: the label is on the last line). No imports with runtime effect.
 */
import type { VerdictLabel } from '../../../shared/constants';
import type { ToolMadLabelSetName } from './tool-mad-settings';

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

export interface ResolveLabelSetOptions {
  /**
   * The spec's defaults (tool-mad.md §10 #11; patch `tool-mad-spec-label-sets`): every dataset gets the
   * three FEVER labels under `auto` (AVeriTeC's Option A; FaVIQ's NEI answers are scored wrong). False:
   * the mapping of executions before it (AVeriTeC's four labels, FaVIQ's two).
   */
  specDefaults?: boolean;
}

/**
 * `auto`: the three FEVER labels. AVeriTeC's four labels (Option B) and FaVIQ's two are asked for by
 * name (`averitec`, `binary`); before the spec's defaults, `auto` picked them by the dataset's name.
 */
export function resolveLabelSetName(name: ToolMadLabelSetName, dataset: string | undefined, options: ResolveLabelSetOptions = {}): ResolvedLabelSetName {
  if (name !== 'auto') return name;
  if (options.specDefaults ?? true) return 'fever';
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

export interface ParseLabelOptions {
  /** Read "not supported" as a negated label (see negatedLabel); false: the parser of recordings made before. */
  negation?: boolean;
}

/**
 * The label an answer ends with: the last non-empty line (markdown and punctuation ignored) if it
 * names exactly one label, else the label named last anywhere in the text, else null. A negated
 * label ("…is not supported.") names its counterpart (negatedLabel), never itself.
 */
export function parseFinalLabel(answer: string, set: ResolvedLabelSetName, options: ParseLabelOptions = {}): string | null {
  const negation = options.negation ?? true;
  const lines = answer.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
  const last = lines.at(-1);
  if (last !== undefined) {
    const named = new Set(labelMentions(last, set, negation).map((mention) => mention.text));
    if (named.size === 1) return [...named][0]!;
  }
  return labelMentions(answer, set, negation).reduce<{ text: string; at: number } | null>((best, m) => (best === null || m.at > best.at ? m : best), null)?.text ?? null;
}

/**
 * What a negated label means: the set's undecided label where it has one ("not supported" in
 * FEVER's vocabulary is NOT ENOUGH INFO), else the opposite label (binary: REFUTES).
 */
export function negatedLabel(set: ResolvedLabelSetName, text: string): string | null {
  const labels = TOOL_MAD_LABEL_SET_TABLE[set];
  const negated = labels.find((label) => label.text === text);
  if (!negated || negated.verdict === 'NEI') return null;
  const undecided = labels.find((label) => label.verdict === 'NEI');
  if (undecided) return undecided.text;
  return labels.find((label) => label.verdict !== negated.verdict && label.verdict !== 'NEI')?.text ?? null;
}

/** "not", "isn't", "never", "cannot be", with at most one word between it and the label. */
const NEGATION_BEFORE = /(?:^|\s)(?:NOT|NEVER|NO|ISN\s+T|AREN\s+T|WASN\s+T|WEREN\s+T|DOESN\s+T|DON\s+T|CANNOT|CAN\s+T)\s+(?:[A-Z]+\s+)?$/;

/** Every label the text names, where it names it; negated mentions name their counterpart (or nothing). */
function labelMentions(text: string, set: ResolvedLabelSetName, negation: boolean): { text: string; at: number }[] {
  const plain = stripped(text);
  const mentions: { text: string; at: number }[] = [];
  for (const label of TOOL_MAD_LABEL_SET_TABLE[set]) {
    for (const spelling of [label.text, ...label.aliases]) {
      for (const at of matchIndices(plain, spelling)) {
        const negated = negation && NEGATION_BEFORE.test(plain.slice(Math.max(0, at - 30), at));
        const named = negated ? negatedLabel(set, label.text) : label.text;
        if (named !== null) mentions.push({ text: named, at });
      }
    }
  }
  return mentions;
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
  return new Set(labelMentions(line, set, false).map((mention) => mention.text));
}

function matchIndices(plain: string, spelling: string): number[] {
  const pattern = new RegExp(`(?<![A-Z])${escapeRegExp(spelling).replace(/ /g, '[\\s_]+')}(?![A-Z])`, 'g');
  return [...plain.matchAll(pattern)].map((match) => match.index);
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
