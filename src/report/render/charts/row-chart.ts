import { seriesLegend } from './legend';
import { linearScale, tickLabel, type Scale } from './scale';
import { svg, tag, text } from './svg';

const WIDTH = 760;
const LEFT = 300;
const RIGHT = 24;
const TOP = 40;
const ROW_GAP = 12;

export interface RowChartFrame {
  title: string;
  series: readonly string[];
  /** One label per row, left of its marks. */
  rowLabels: readonly string[];
  /** Height of one series' marks in a row. */
  band: number;
  /** Tick values of the value axis, from 0. */
  ticks: readonly number[];
  format?: (value: number) => string;
  axisLabel: string;
  /** The marks of a row: `y0` is its top, `x` the value scale. */
  drawRow: (row: number, y0: number, x: Scale) => string[];
}

/** Horizontal rows (one per label, a band per series) over a value axis with a legend: the frame of bar and box charts. */
export function rowChart(frame: RowChartFrame): string {
  const format = frame.format ?? tickLabel;
  const rowHeight = frame.series.length * frame.band + ROW_GAP;
  const plotHeight = frame.rowLabels.length * rowHeight;
  const height = TOP + plotHeight + 44;
  const x = linearScale([0, frame.ticks[frame.ticks.length - 1] ?? 1], [LEFT, WIDTH - RIGHT]);
  const grid = frame.ticks.flatMap((t) => [
    tag('line', { x1: x(t), x2: x(t), y1: TOP - 4, y2: TOP + plotHeight, class: 'grid' }),
    text(x(t), TOP + plotHeight + 16, format(t), { 'text-anchor': 'middle', class: 'tick' }),
  ]);
  const rows = frame.rowLabels.flatMap((label, r) => {
    const y0 = TOP + r * rowHeight;
    return [text(LEFT - 8, y0 + (frame.series.length * frame.band) / 2 + 4, label, { 'text-anchor': 'end', class: 'tick' }), ...frame.drawRow(r, y0, x)];
  });
  return svg(
    WIDTH,
    height,
    frame.title,
    ...seriesLegend(frame.series, LEFT),
    ...grid,
    ...rows,
    text((LEFT + WIDTH - RIGHT) / 2, height - 8, frame.axisLabel, { 'text-anchor': 'middle', class: 'axis-label' }),
  );
}

/** Where a row chart's value axis starts (bars grow from here). */
export const ROW_CHART_LEFT = LEFT;
