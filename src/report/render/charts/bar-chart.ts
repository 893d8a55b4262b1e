import { linearScale, niceTicks, tickLabel } from './scale';
import { seriesColor } from './palette';
import { svg, tag, text } from './svg';

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

const WIDTH = 760;
const LEFT = 300;
const RIGHT = 24;
const TOP = 40;
const BAR = 14;
const ROW_GAP = 12;

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

function legend(series: readonly string[]): string[] {
  return series.flatMap((name, i) => [
    tag('rect', { x: LEFT + i * 150, y: 10, width: 12, height: 12, fill: seriesColor(i) }),
    text(LEFT + i * 150 + 18, 21, name, { class: 'tick' }),
  ]);
}

/** Horizontal grouped bars, one row per label, with optional CI whiskers. */
export function barChart(spec: BarChartSpec): string {
  const rowHeight = spec.series.length * BAR + ROW_GAP;
  const plotHeight = spec.rows.length * rowHeight;
  const height = TOP + plotHeight + 44;
  const ticks = niceTicks(spec.max ?? maxOf(spec.rows));
  const x = linearScale([0, ticks[ticks.length - 1] ?? 1], [LEFT, WIDTH - RIGHT]);
  const grid = ticks.flatMap((t) => [
    tag('line', { x1: x(t), x2: x(t), y1: TOP - 4, y2: TOP + plotHeight, class: 'grid' }),
    text(x(t), TOP + plotHeight + 16, tickLabel(t), { 'text-anchor': 'middle', class: 'tick' }),
  ]);
  const rows = spec.rows.flatMap((row, r) => {
    const y0 = TOP + r * rowHeight;
    return [
      text(LEFT - 8, y0 + (spec.series.length * BAR) / 2 + 4, row.label, { 'text-anchor': 'end', class: 'tick' }),
      ...row.bars.flatMap((bar, s) => {
        const y = y0 + s * BAR;
        const drawn = [tag('rect', { x: LEFT, y, width: Math.max(0, x(bar.value) - LEFT), height: BAR - 2, fill: seriesColor(s) })];
        if (bar.lower !== undefined && bar.upper !== undefined) drawn.push(whisker(x(bar.lower), x(bar.upper), y + (BAR - 2) / 2));
        return drawn;
      }),
    ];
  });
  return svg(
    WIDTH,
    height,
    spec.title,
    ...legend(spec.series),
    ...grid,
    ...rows,
    text((LEFT + WIDTH - RIGHT) / 2, height - 8, spec.axisLabel, { 'text-anchor': 'middle', class: 'axis-label' }),
  );
}
