import { groupLabel } from '../group-key';
import type { ReviewedMetrics, RunReport } from '../report-types';
import { escapeXml } from './charts/svg';
import { REPORT_CSS } from './html-style';
import { callsChart, costF1Chart, f1Chart, groupHeatmap } from './report-charts';
import { DEBATE_NOTE, debatedGroups, debateTable } from './debate-table';
import { DOCUMENTS_NOTE, documentsTable } from './documents-table';
import { REPEATS_NOTE, repeatedGroups, repeatsTable } from './repeats-table';
import { COMPARISON_NOTE, type RunComparisons, type SideAnswer } from '../paired-comparisons';
import { answerText, comparisonNotes, comparisonsTable, sideLabel } from './comparisons-table';
import { disputedTable, reviewedNote } from './reviewed-tables';
import { confusionTable, conventionsTable, costTable, datasetsTable, failuresTable, isScored, manifestTable, perClassTable, summaryTable, type Table } from './report-tables';

/** A number, with a unit of duration ("3 min 30 s") or an interval ("0.700 [0.600, 0.800]"). */
const NUMERIC = /^[-+$]?[\d.,]+( (ms|s|min|h|d)( [\d.]+ (s|min|h))?)?( \[[^\]]*\])?$/;

function htmlTable(table: Table, className = ''): string {
  const head = `<tr>${table.header.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr>`;
  const body = table.rows
    .map((row) => `<tr>${row.map((c) => `<td${NUMERIC.test(c) ? ' class="num"' : ''}>${escapeXml(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table${className ? ` class="${className}"` : ''}>\n${head}\n${body}\n</table>`;
}

function costRecorded(report: RunReport): boolean {
  return report.groups.some((g) => g.usage.total.costUsd > 0);
}

function figure(caption: string, chart: string): string {
  return `<figure><figcaption>${escapeXml(caption)}</figcaption>${chart}</figure>`;
}

function groupSection(report: RunReport): string[] {
  return report.groups.map((group) =>
    [
      `<h3>${escapeXml(groupLabel(group.key))}</h3>`,
      `<p class="note">Scheme: ${escapeXml(group.scheme)}; ${group.counts.scored} scored, ${group.counts.invalid} invalid, ${group.counts.failed} failed. Prompt versions: ${escapeXml(group.promptVersions.join(', ') || '–')}.</p>`,
      isScored(group)
        ? `<div class="group"><div>${htmlTable(perClassTable(group))}${htmlTable(confusionTable(group))}</div>${groupHeatmap(group)}</div>`
        : '<p class="note">No scored claims (no gold label on the scheme).</p>',
      group.failures.length > 0 ? `<p>Failures (${group.failures.length}):</p>${htmlTable(failuresTable(group))}` : '',
    ].join('\n'),
  );
}

/** Disagreeing claims listed per comparison in report.html (report.json and `verity compare --json` hold them all). */
export const MAX_HTML_DISAGREEMENTS = 200;

/** Links to a side's transcripts of a claim in the explorer written next to the report (explorer.html#claim=<workflow id>). */
function transcriptLinks(answer: SideAnswer): string {
  const links = answer.workflowIds.map(
    (id, i) => `<a class="transcript" href="explorer.html#claim=${escapeXml(encodeURIComponent(id))}">${answer.workflowIds.length > 1 ? `transcript ${i + 1}` : 'transcript'}</a>`,
  );
  return `${escapeXml(answerText(answer))}${links.length > 0 ? ` · ${links.join(' ')}` : ''}`;
}

function comparisonsSection(comparisons: RunComparisons): string {
  const notes = comparisonNotes(comparisons);
  if (comparisons.comparisons.length === 0 && notes.length === 0) return '';
  const details = comparisons.comparisons
    .filter((c) => c.disagreements.length > 0)
    .map((c) => {
      const shown = c.disagreements.slice(0, MAX_HTML_DISAGREEMENTS);
      const rows = shown
        .map((d) => `<tr${d.discordant ? ' class="discordant"' : ''}><td>${escapeXml(d.claimId)}</td><td>${escapeXml(d.gold ?? '–')}</td><td>${transcriptLinks(d.a)}</td><td>${transcriptLinks(d.b)}</td></tr>`)
        .join('\n');
      const more = c.disagreements.length > shown.length ? `<p class="note">… ${c.disagreements.length - shown.length} more in report.json and \`verity compare --json\`.</p>` : '';
      const title = `${c.dataset} · ${sideLabel(c.a, c.varies)} (A) vs ${sideLabel(c.b, c.varies)} (B): ${c.disagreements.length} claims answered differently, ${c.disagreements.filter((d) => d.discordant).length} right on one side only`;
      return `<details class="disagreements"><summary>${escapeXml(title)}</summary>\n<table>\n<tr><th>claim</th><th>gold</th><th>A</th><th>B</th></tr>\n${rows}\n</table>${more}</details>`;
    });
  return [
    '<h2 id="comparisons">Paired comparisons</h2>',
    `<p class="note">${escapeXml(COMPARISON_NOTE)} Transcripts open in explorer.html next to this report (it embeds the run's first verifications; <code>verity view ${escapeXml(comparisons.runId)}</code> serves them all).</p>`,
    comparisons.comparisons.length > 0 ? htmlTable(comparisonsTable(comparisons), 'comparisons') : '',
    notes.length > 0 ? `<ul class="notes">${notes.map((note) => `<li>${escapeXml(note)}</li>`).join('')}</ul>` : '',
    ...details,
  ].join('\n');
}

/** report.html: one self-contained page (inline CSS and SVG, no scripts, nothing fetched). */
function reviewedSection(reviewed: ReviewedMetrics, protocol: RunReport['protocol']): string {
  return `<h3 id="reviewed">With disputed gold labels set aside</h3>
<p class="note">${escapeXml(reviewedNote(reviewed))}</p>
${htmlTable(summaryTable(reviewed.groups, protocol))}
${reviewed.disputedClaims.length > 0 ? htmlTable(disputedTable(reviewed), 'disputed') : ''}`;
}

export function renderHtml(report: RunReport): string {
  const banner = report.banner ? `<div class="banner" role="alert">${escapeXml(report.banner)}</div>` : '';
  const warnings = report.warnings.length > 0 ? `<h2>Warnings</h2><ul class="warnings">${report.warnings.map((w) => `<li>${escapeXml(w)}</li>`).join('')}</ul>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>verity report: ${escapeXml(report.runId)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
<h1>verity report: ${escapeXml(report.runId)}</h1>
${banner}
<h2 id="results">Results</h2>
<p class="note">Failed verifications are listed, not scored; claims without a gold label on the dataset scheme are not scored. Intervals are percentile-bootstrap 95% CIs.</p>
${htmlTable(summaryTable(report.groups, report.protocol))}
${report.reviewed ? reviewedSection(report.reviewed, report.protocol) : ''}
<h3>Metric conventions</h3>
${htmlTable(conventionsTable(report))}
<div class="charts">
${figure('F1 by dataset, method and model (bars: estimate; whiskers: 95% CI)', f1Chart(report.groups.filter(isScored)))}
${figure(`Cost per claim against macro-F1 (colour: method)${costRecorded(report) ? '' : ': no cost recorded, every verdict cost $0'}`, costF1Chart(report.groups.filter(isScored)))}
${figure('LLM and tool calls per claim', callsChart(report.groups))}
</div>
${comparisonsSection(report.comparisons)}
${report.documents ? `<h2>Documents</h2>\n<p class="note">${escapeXml(DOCUMENTS_NOTE)}</p>\n${htmlTable(documentsTable(report))}` : ''}
${repeatedGroups(report.groups).length > 0 ? `<h2>Repeats</h2>\n<p class="note">${escapeXml(REPEATS_NOTE)}</p>\n${htmlTable(repeatsTable(report.groups))}` : ''}
${debatedGroups(report.groups).length > 0 ? `<h2>Debates</h2>\n<p class="note">${escapeXml(DEBATE_NOTE)}</p>\n${htmlTable(debateTable(report.groups))}` : ''}
<h2>Cost and latency (per claim, over verdicts)</h2>
${htmlTable(costTable(report.groups))}
<h2 id="groups">Groups</h2>
${groupSection(report).join('\n')}
<h2 id="run">Run</h2>
${htmlTable(manifestTable(report), 'kv')}
${htmlTable(datasetsTable(report))}
${warnings}
</main>
</body>
</html>
`;
}
