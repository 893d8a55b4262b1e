import { groupLabel } from '../group-key';
import type { RunReport } from '../report-types';
import { COMPARISON_NOTE } from '../paired-comparisons';
import { comparisonNotes, comparisonsTable } from './comparisons-table';
import { DEBATE_NOTE, debatedGroups, debateTable } from './debate-table';
import { DOCUMENTS_NOTE, documentsTable } from './documents-table';
import { disputedTable, reviewedNote } from './reviewed-tables';
import { REPEATS_NOTE, repeatedGroups, repeatsTable } from './repeats-table';
import { confusionTable, conventionsTable, costTable, datasetsTable, failuresTable, isScored, manifestTable, perClassTable, summaryTable, type Table } from './report-tables';
import { sentTemperature } from '../../llm/sent-temperature';

/** Text from the run (dataset names, models, claim ids, reasons) as inert Markdown: no HTML, no link, one line. */
function inline(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\]\(/g, ']\\(');
}

function cell(text: string): string {
  return inline(text).replace(/\|/g, '\\|');
}

export function markdownTable(table: Table): string {
  const line = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(table.header), line(table.header.map(() => '---')), ...table.rows.map(line)].join('\n');
}

function groupSections(report: RunReport): string[] {
  return report.groups.flatMap((group) => [
    `### ${inline(groupLabel(group.key)).replace(/^#+/, '')}`,
    `Scheme: ${group.scheme}. Prompt versions: ${group.promptVersions.join(', ') || '–'}.`,
    ...(sentTemperature(group.key.model, undefined).startsWith('not sent') ? [`Temperature: ${sentTemperature(group.key.model, undefined)}.`] : []),
    answerHandlingLine(group.answers),
    ...(isScored(group)
      ? [
          markdownTable(perClassTable(group)),
          'Confusion matrix (rows: gold; "invalid": answers that do not parse onto the scheme, counted as wrong):',
          markdownTable(confusionTable(group)),
        ]
      : ['No scored claims (no gold label on the scheme).']),
    ...(group.failures.length > 0 ? [`Failures (${group.failures.length}):`, markdownTable(failuresTable(group))] : []),
  ]);
}

/** What the model's answers needed: invalid ones (handled by the method), response-format fallbacks, trimmed prompts. */
function answerHandlingLine(answers: RunReport['groups'][number]['answers']): string {
  return (
    `LLM answers: ${answers.invalid} invalid (handled as the method's paper does), ${answers.formatFallbacks} given without json_schema ` +
    `(the server rejected it; json_object or the schema in the prompt), ${answers.trimmedPrompts} prompts trimmed to the context window.` +
    (answers.reasoningTokens ? ` ${answers.reasoningTokens} reasoning tokens (in the completion tokens, billed as output).` : '') +
    (answers.offVocabulary ? ` ${answers.offVocabulary} final answers off the label vocabulary (none of its labels or their aliases; scored as the negative label).` : '')
  );
}

function comparisonsSection(report: RunReport): string[] {
  const notes = comparisonNotes(report.comparisons);
  if (report.comparisons.comparisons.length === 0 && notes.length === 0) return [];
  return [
    '## Paired comparisons',
    `${COMPARISON_NOTE} The claims each pair answers differently: \`verity compare ${report.runId}\`.`,
    ...(report.comparisons.comparisons.length > 0 ? [markdownTable(comparisonsTable(report.comparisons))] : []),
    ...(notes.length > 0 ? [notes.map((note) => `- ${inline(note)}`).join('\n')] : []),
  ];
}

/** report.md: the manifest, a summary per group, cost and latency, and each group's class metrics and confusion matrix. */
export function renderMarkdown(report: RunReport): string {
  const sections = [
    `# Report: ${report.runId}`,
    ...(report.banner ? [`> **${report.banner}**`] : []),
    '## Run',
    markdownTable(manifestTable(report)),
    markdownTable(datasetsTable(report)),
    '## Results',
    'Failed verifications are scored as wrong answers (the papers score every claim) and listed; claims without a gold label on the dataset scheme are not scored.',
    markdownTable(summaryTable(report.groups, report.protocol)),
    ...(report.reviewed
      ? [
          '### With disputed gold labels set aside',
          inline(reviewedNote(report.reviewed)),
          markdownTable(summaryTable(report.reviewed.groups, report.protocol)),
          ...(report.reviewed.disputedClaims.length > 0 ? [markdownTable(disputedTable(report.reviewed))] : []),
        ]
      : []),
    '### Metric conventions',
    markdownTable(conventionsTable(report)),
    ...comparisonsSection(report),
    ...(report.documents ? ['## Documents', DOCUMENTS_NOTE, markdownTable(documentsTable(report))] : []),
    ...(repeatedGroups(report.groups).length > 0 ? ['## Repeats', REPEATS_NOTE, markdownTable(repeatsTable(report.groups))] : []),
    ...(debatedGroups(report.groups).length > 0 ? ['## Debates', DEBATE_NOTE, markdownTable(debateTable(report.groups))] : []),
    '## Cost and latency (per claim, over verdicts)',
    markdownTable(costTable(report.groups)),
    '## Groups',
    ...groupSections(report),
    ...(report.warnings.length > 0 ? ['## Warnings', report.warnings.map((w) => `- ${w}`).join('\n')] : []),
  ];
  return `${sections.join('\n\n')}\n`;
}
