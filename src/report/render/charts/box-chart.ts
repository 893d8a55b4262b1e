import { linearScale, niceTicks, tickLabel } from './scale';
import { seriesColor } from './palette';
import { svg, tag, text } from './svg';

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

const WIDTH = 760;
const LEFT = 300;
const RIGHT = 24;
const TOP = 40;
const BOX = 16;
const ROW_GAP = 12;

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
  const format = spec.format ?? tickLabel;
  const rowHeight = spec.series.length * BOX + ROW_GAP;
  const plotHeight = spec.rows.length * rowHeight;
  const height = TOP + plotHeight + 44;
  const ticks = (spec.ticks ?? niceTicks)(Math.max(0, ...spec.rows.flatMap((row) => row.boxes.map((box) => box?.max ?? 0))));
  const x = linearScale([0, ticks[ticks.length - 1] ?? 1], [LEFT, WIDTH - RIGHT]);
  const grid = ticks.flatMap((t) => [
    tag('line', { x1: x(t), x2: x(t), y1: TOP - 4, y2: TOP + plotHeight, class: 'grid' }),
    text(x(t), TOP + plotHeight + 16, format(t), { 'text-anchor': 'middle', class: 'tick' }),
  ]);
  const legend = spec.series.flatMap((name, i) => [
    tag('rect', { x: LEFT + i * 150, y: 10, width: 12, height: 12, fill: seriesColor(i) }),
    text(LEFT + i * 150 + 18, 21, name, { class: 'tick' }),
  ]);
  const rows = spec.rows.flatMap((row, r) => {
    const y0 = TOP + r * rowHeight;
    return [
      text(LEFT - 8, y0 + (spec.series.length * BOX) / 2 + 4, row.label, { 'text-anchor': 'end', class: 'tick' }),
      ...row.boxes.flatMap((box, s) => (box ? [boxMarkup(box, y0 + s * BOX, x, seriesColor(s))] : [])),
    ];
  });
  return svg(
    WIDTH,
    height,
    spec.title,
    ...legend,
    ...grid,
    ...rows,
    text((LEFT + WIDTH - RIGHT) / 2, height - 8, spec.axisLabel, { 'text-anchor': 'middle', class: 'axis-label' }),
  );
}
