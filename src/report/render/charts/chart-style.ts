/** The charts' SVG styles, shared by report.html and the explorer. */
export const CHART_CSS = `
svg.chart { background: #fff; border: 1px solid #eaeef2; border-radius: 6px; max-width: 100%; height: auto; }
svg .tick { font-size: 11px; fill: #24292f; }
svg .axis-label { font-size: 12px; fill: #57606a; }
svg .point-label { font-size: 10px; fill: #24292f; }
svg .grid { stroke: #eaeef2; stroke-width: 1; }
svg .on-dark { fill: #fff; font-size: 13px; font-weight: 600; }
svg .on-light { fill: #1f2328; font-size: 13px; font-weight: 600; }
`;
