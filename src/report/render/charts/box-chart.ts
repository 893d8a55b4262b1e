import { niceTicks } from './scale';
import { rowChart } from './row-chart';
import { seriesColor } from './palette';
import { tag } from './svg';

/** Five numbers and the mean of a sample, as a box plot draws them. */
export interface BoxStats {
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
}

export interface BoxRow {
  label: string;
  /** One box per series, in series order; null where the series has no values. */
  boxes: (BoxStats | null)[];
}

export interface BoxChartSpec {
  title: string;
  series: string[];
  rows: BoxRow[];
  axisLabel: string;
  /** Tick text (e.g. human durations); default: a plain number. */
  format?: (value: number) => string;
  /** Tick values from 0 to at least the largest value; default: round numbers (niceTicks). */
  ticks?: (max: number) => number[];
}

const BOX = 16;

function boxMarkup(box: BoxStats, y: number, x: (value: number) => number, color: string): string {
  const middle = y + (BOX - 2) / 2;
  const line = { stroke: '#24292f', 'stroke-width': 1.2 };
  return (
    tag('line', { x1: x(box.min), x2: x(box.q1), y1: middle, y2: middle, ...line }) +
    tag('line', { x1: x(box.q3), x2: x(box.max), y1: middle, y2: middle, ...line }) +
    tag('line', { x1: x(box.min), x2: x(box.min), y1: y + 2, y2: y + BOX - 4, ...line }) +
    tag('line', { x1: x(box.max), x2: x(box.max), y1: y + 2, y2: y + BOX - 4, ...line }) +
    tag('rect', { x: x(box.q1), y, width: Math.max(1, x(box.q3) - x(box.q1)), height: BOX - 2, fill: color, 'fill-opacity': 0.55, stroke: color }) +
    tag('line', { x1: x(box.median), x2: x(box.median), y1: y, y2: y + BOX - 2, stroke: '#24292f', 'stroke-width': 2 }) +
    tag('circle', { cx: x(box.mean), cy: middle, r: 3, fill: '#fff', stroke: '#24292f' })
  );
}

/** Horizontal box plots (whiskers min–max, box q1–q3, bar the median, circle the mean), one row per label. */
export function boxChart(spec: BoxChartSpec): string {
  return rowChart({
    title: spec.title,
    series: spec.series,
    rowLabels: spec.rows.map((row) => row.label),
    band: BOX,
    ticks: (spec.ticks ?? niceTicks)(Math.max(0, ...spec.rows.flatMap((row) => row.boxes.map((box) => box?.max ?? 0)))),
    ...(spec.format ? { format: spec.format } : {}),
    axisLabel: spec.axisLabel,
    drawRow: (r, y0, x) => (spec.rows[r]?.boxes ?? []).flatMap((box, s) => (box ? [boxMarkup(box, y0 + s * BOX, x, seriesColor(s))] : [])),
  });
}
