import type { DocumentVerdict } from '../shared/check/document';
import type { ExplorerClaim, ExplorerFailure, ExplorerRow, ExplorerSummary } from './explorer-data';
import type { ExplorerDocumentRow } from './explorer-documents';
import { EXPLORER_SCRIPT } from './explorer-script';
import { CHART_CSS } from '../report/render/charts/chart-style';
import type { EmbeddedCharts } from './explorer-snapshot-charts';
import type { ReviewDocument } from '../review/review-schema';

/** A bounded page of a run, embedded in explorer.html so it works offline. */
export interface EmbeddedExplorer {
  summary: ExplorerSummary;
  rows: ExplorerRow[];
  claims: Record<string, ExplorerClaim>;
  failures: ExplorerFailure[];
  /** The run's newest checked documents, whole; `total` counts them all. */
  documents: { total: number; rows: ExplorerDocumentRow[]; verdicts: Record<string, DocumentVerdict> };
  /** The run's charts for each combination of the method, model and dataset filters (absent in pages written before charts). */
  charts?: EmbeddedCharts;
  /** Human reviews of the embedded verifications (`verity view`), shown read-only with their transcripts. */
  reviews?: ReviewDocument[];
}

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5em 3em; color: #1d2330; }
h1 { font-size: 1.4em; margin: .8em 0 .2em; } h2 { font-size: 1.15em; margin-top: 1.5em; } h3 { font-size: 1em; margin: .8em 0 .3em; }
#filters { display: flex; flex-wrap: wrap; gap: .4em 1em; padding: .6em; background: #f3f5f9; border-radius: 6px; margin: .6em 0; }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid #e3e6ee; padding: .3em .5em; text-align: left; vertical-align: top; }
th { background: #f8f9fc; position: sticky; top: 0; } tr.claim-row { cursor: pointer; } tr.claim-row:hover { background: #eef3ff; }
td.num { text-align: right; font-variant-numeric: tabular-nums; } td.claim-text { max-width: 32em; }
.ok { color: #127a3a; font-weight: bold; } .bad { color: #b3261e; font-weight: bold; }
.label { font-weight: 600; } .label.big { padding: .1em .5em; border-radius: 4px; background: #e8edf8; }
pre { white-space: pre-wrap; word-break: break-word; background: #f7f8fb; padding: .5em; border-radius: 4px; margin: .3em 0; max-height: 30em; overflow: auto; }
pre.error { background: #fdf0ef; } pre.raw { background: #f0f7f1; }
.block { border-top: 1px solid #e3e6ee; } .step { margin: .5em 0; padding-left: .6em; border-left: 3px solid #c9d3ea; }
.memory { border-left-color: #9bc59d; } details { margin: .3em 0; } details > summary { cursor: pointer; font-family: ui-monospace, monospace; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: .1em 1em; margin: .3em 0; } dt { color: #5b6478; }
.side-by-side { display: flex; gap: 1em; overflow-x: auto; } .column { flex: 1 1 0; min-width: 18em; border: 1px solid #e3e6ee; border-radius: 6px; padding: .6em; }
.error { color: #b3261e; } #pager, #documents-pager { margin: .5em 0; display: flex; gap: 1em; align-items: center; }
tr.document-row { cursor: pointer; } tr.document-row:hover { background: #eef3ff; }
.document-text { white-space: pre-wrap; word-break: break-word; line-height: 1.7; padding: .6em; border: 1px solid #e3e6ee; border-radius: 6px; max-height: 40em; overflow: auto; }
.sentence { cursor: pointer; border-radius: 3px; padding: .05em 0; } .sentence.selected { outline: 2px solid #3b5bdb; }
.s-supported { background: #d3f2dc; } .s-refuted { background: #f9d0cc; } .s-nei { background: #fde8b4; }
.s-skipped { background: #e6e8ed; } .s-failed { background: #fff; border: 1px dashed #b3261e; }
.has-failed { text-decoration: underline wavy #b3261e; } .has-failed::after { content: "⚠"; color: #b3261e; font-size: .8em; }
.review { border-left: 3px solid #c9a227; padding-left: .6em; margin: .4em 0; } .legend span { margin-right: .8em; padding: 0 .3em; } ol.sentence-claims > li { margin: .4em 0; }
#charts { display: grid; align-items: start; grid-template-columns: repeat(auto-fill, minmax(620px, 1fr)); gap: 1em; } #charts-info { color: #5b6478; }
figure.chart-figure { margin: 0; } figure.chart-figure figcaption { font-weight: 600; margin: .2em 0; } button.chart-numbers { margin-left: .6em; font-weight: normal; }
table.chart-table { font-size: .9em; margin: .3em 0; } table.chart-table th { position: static; }
${CHART_CSS}`;

/** The explorer page; with `embedded`, a self-contained file that reads nothing from the network. */
export function explorerHtml(embedded?: EmbeddedExplorer): string {
  const data = embedded ? `<script>window.__VERITY_EXPLORER__ = ${safeJson(embedded)};</script>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>verity explorer</title><style>${STYLE}</style></head>
<body>
<h1 id="run-title">verity explorer</h1>
<div id="run-stats"></div>
<div id="filters"></div>
<details id="charts-section" open><summary><b>Charts</b> <span id="charts-info"></span></summary><div id="charts"></div></details>
<table id="claims"><thead><tr><th>claim</th><th>dataset</th><th>method</th><th>model</th><th>text</th><th>predicted</th><th>gold</th><th></th>
<th>LLM calls</th><th>tool calls</th><th>tokens</th><th>cost</th><th>time</th></tr></thead><tbody id="claims-body"></tbody></table>
<div id="pager"><button id="prev">previous</button><span id="page-info"></span><button id="next">next</button></div>
<div id="transcript" hidden></div>
<div id="compare" hidden></div>
<h2 id="failures-title">Failures</h2>
<table id="failures"><thead><tr><th>claim</th><th>method</th><th>model</th><th>error type</th><th>reason</th><th></th></tr></thead><tbody id="failures-body"></tbody></table>
<h2 id="documents-title">Documents</h2>
<table id="documents"><thead><tr><th>document</th><th>source</th><th>method</th><th>model</th><th>claims</th><th>supported</th><th>not supported</th><th>skipped</th><th>failed</th>
<th>precision</th><th>F1@K</th><th>finished</th></tr></thead><tbody id="documents-body"></tbody></table>
<div id="documents-pager"><button id="documents-prev">previous</button><span id="documents-info"></span><button id="documents-next">next</button></div>
<div id="document" hidden></div>
${data}<script>${EXPLORER_SCRIPT}</script>
</body></html>
`;
}

/** JSON that cannot close the script element or break the line. */
function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
