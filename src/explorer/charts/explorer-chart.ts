/** A chart of the explorer: its SVG and, one click away, the numbers it draws. */
export interface ExplorerChart {
  /** Stable name (`f1`, `calls`, `confusion-<n>` …): the page and the tests find a chart by it. */
  id: string;
  title: string;
  svg: string;
  table: { columns: string[]; rows: (string | number)[][] };
}

/** A ratio or mean for a table cell: three decimals, as the report prints them. */
export function cell(value: number): string | number {
  return Number.isFinite(value) ? Math.round(value * 1000) / 1000 : '–';
}
