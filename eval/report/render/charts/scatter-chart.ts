import { linearScale, niceTicks, tickLabel } from './scale';
import { seriesColor } from './palette';
import { svg, tag, text } from './svg';

export interface ScatterPoint {
  label: string;
  x: number;
  y: number;
  /** Index of the point's colour (e.g. its method). */
  series: number;
}

export interface ScatterSpec {
  title: string;
  points: ScatterPoint[];
  xLabel: string;
  yLabel: string;
  yMax?: number;
}

const WIDTH = 760;
const HEIGHT = 340;
const PAD = { left: 64, right: 24, top: 20, bottom: 48 };

/** Labels go right of a point, or left of it in the right third of the plot so they stay inside. */
function pointLabel(cx: number, cy: number, label: string): string {
  const leftOfPoint = cx > PAD.left + ((WIDTH - PAD.left - PAD.right) * 2) / 3;
  return text(leftOfPoint ? cx - 9 : cx + 9, cy - 7, label, { class: 'point-label', 'text-anchor': leftOfPoint ? 'end' : 'start' });
}

/** Points with labels, linear axes from 0. */
export function scatterChart(spec: ScatterSpec): string {
  // 10% headroom keeps the largest point and its label off the plot's edge.
  const xTicks = niceTicks(Math.max(0, ...spec.points.map((p) => p.x)) * 1.1);
  const yTicks = niceTicks(spec.yMax ?? Math.max(0, ...spec.points.map((p) => p.y)));
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
  const points = spec.points.flatMap((p) => [
    tag('circle', { cx: x(p.x), cy: y(p.y), r: 6, fill: seriesColor(p.series), 'fill-opacity': 0.85, stroke: '#fff' }),
    pointLabel(x(p.x), y(p.y), p.label),
  ]);
  return svg(
    WIDTH,
    HEIGHT,
    spec.title,
    ...grid,
    ...points,
    text((PAD.left + WIDTH - PAD.right) / 2, HEIGHT - 10, spec.xLabel, { 'text-anchor': 'middle', class: 'axis-label' }),
    text(16, (PAD.top + HEIGHT - PAD.bottom) / 2, spec.yLabel, {
      'text-anchor': 'middle',
      class: 'axis-label',
      transform: `rotate(-90 16 ${(PAD.top + HEIGHT - PAD.bottom) / 2})`,
    }),
  );
}
