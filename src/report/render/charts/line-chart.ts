import { linearScale, niceTicks, tickLabel } from './scale';
import { seriesColor } from './palette';
import { svg, tag, text } from './svg';

export interface Line {
  label: string;
  points: { x: number; y: number }[];
}

export interface LineChartSpec {
  title: string;
  lines: Line[];
  xLabel: string;
  yLabel: string;
  yMax?: number;
}

const WIDTH = 760;
const HEIGHT = 320;
const PAD = { left: 64, right: 24, top: 36, bottom: 48 };

/** Lines over a shared x axis from 0 (e.g. a learning curve), one colour per line, with a legend. */
export function lineChart(spec: LineChartSpec): string {
  const xTicks = niceTicks(Math.max(0, ...spec.lines.flatMap((line) => line.points.map((p) => p.x))));
  const yTicks = niceTicks(spec.yMax ?? Math.max(0, ...spec.lines.flatMap((line) => line.points.map((p) => p.y))));
  const x = linearScale([0, xTicks[xTicks.length - 1] ?? 1], [PAD.left, WIDTH - PAD.right]);
  const y = linearScale([0, yTicks[yTicks.length - 1] ?? 1], [HEIGHT - PAD.bottom, PAD.top]);
  const grid = [
    ...xTicks.flatMap((t) => [
      tag('line', { x1: x(t), x2: x(t), y1: PAD.top, y2: HEIGHT - PAD.bottom, class: 'grid' }),
      text(x(t), HEIGHT - PAD.bottom + 16, tickLabel(t), { 'text-anchor': 'middle', class: 'tick' }),
    ]),
    ...yTicks.flatMap((t) => [
      tag('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(t), y2: y(t), class: 'grid' }),
      text(PAD.left - 6, y(t) + 4, tickLabel(t), { 'text-anchor': 'end', class: 'tick' }),
    ]),
  ];
  const lines = spec.lines.flatMap((line, i) => [
    tag('polyline', { points: line.points.map((p) => `${Math.round(x(p.x) * 10) / 10},${Math.round(y(p.y) * 10) / 10}`).join(' '), fill: 'none', stroke: seriesColor(i), 'stroke-width': 2 }),
    tag('rect', { x: PAD.left + i * 220, y: 10, width: 12, height: 12, fill: seriesColor(i) }),
    text(PAD.left + i * 220 + 18, 21, line.label, { class: 'tick' }),
  ]);
  return svg(
    WIDTH,
    HEIGHT,
    spec.title,
    ...grid,
    ...lines,
    text((PAD.left + WIDTH - PAD.right) / 2, HEIGHT - 10, spec.xLabel, { 'text-anchor': 'middle', class: 'axis-label' }),
    text(16, (PAD.top + HEIGHT - PAD.bottom) / 2, spec.yLabel, { 'text-anchor': 'middle', class: 'axis-label', transform: `rotate(-90 16 ${(PAD.top + HEIGHT - PAD.bottom) / 2})` }),
  );
}
