import { niceTicks } from './scale';
import { rowChart, ROW_CHART_LEFT } from './row-chart';
import { seriesColor } from './palette';
import { tag } from './svg';

export interface Bar {
  value: number;
  /** Confidence interval, drawn as a whisker. */
  lower?: number;
  upper?: number;
}

export interface BarRow {
  label: string;
  /** One bar per series, in series order. */
  bars: Bar[];
}

export interface BarChartSpec {
  title: string;
  series: string[];
  rows: BarRow[];
  /** Upper end of the value axis; default: the largest value or whisker. */
  max?: number;
  axisLabel: string;
}

const LEFT = ROW_CHART_LEFT;
const BAR = 14;

function maxOf(rows: readonly BarRow[]): number {
  return Math.max(0, ...rows.flatMap((row) => row.bars.map((bar) => Math.max(bar.value, bar.upper ?? 0))));
}

function whisker(x0: number, x1: number, y: number): string {
  const attrs = { stroke: '#24292f', 'stroke-width': 1.2 };
  return (
    tag('line', { x1: x0, x2: x1, y1: y, y2: y, ...attrs }) +
    tag('line', { x1: x0, x2: x0, y1: y - 4, y2: y + 4, ...attrs }) +
    tag('line', { x1: x1, x2: x1, y1: y - 4, y2: y + 4, ...attrs })
  );
}

/** Horizontal grouped bars, one row per label, with optional CI whiskers. */
export function barChart(spec: BarChartSpec): string {
  return rowChart({
    title: spec.title,
    series: spec.series,
    rowLabels: spec.rows.map((row) => row.label),
    band: BAR,
    ticks: niceTicks(spec.max ?? maxOf(spec.rows)),
    axisLabel: spec.axisLabel,
    drawRow: (r, y0, x) =>
      (spec.rows[r]?.bars ?? []).flatMap((bar, s) => {
        const y = y0 + s * BAR;
        const drawn = [tag('rect', { x: LEFT, y, width: Math.max(0, x(bar.value) - LEFT), height: BAR - 2, fill: seriesColor(s) })];
        if (bar.lower !== undefined && bar.upper !== undefined) drawn.push(whisker(x(bar.lower), x(bar.upper), y + (BAR - 2) / 2));
        return drawn;
      }),
  });
}
