import { CHART_CSS } from './charts/chart-style';

/** The report page's only stylesheet, inlined so report.html needs nothing else. */
export const REPORT_CSS = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 48px; background: #fff; }
h1 { font-size: 26px; margin: 0 0 12px; }
h2 { font-size: 20px; margin: 32px 0 12px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
h3 { font-size: 16px; margin: 24px 0 8px; }
.banner { background: #fff3cd; border: 2px solid #d4a72c; color: #5c4200; padding: 12px 16px; font-weight: 600; font-size: 16px; border-radius: 6px; margin: 8px 0 16px; }
.note { color: #57606a; }
table { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; white-space: nowrap; }
.kv td:first-child { color: #57606a; white-space: nowrap; }
.kv td { max-width: 860px; overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; }
figcaption { font-weight: 600; margin: 4px 0; }
.group { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
${CHART_CSS}ul.warnings li { color: #9a6700; }
tr.discordant td { background: #fff8e6; }
details.disagreements { margin: 8px 0; }
details.disagreements summary { cursor: pointer; }
`;
