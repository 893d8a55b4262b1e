import { niceTicks } from './scale';
import { polylinePoints, xyAxes } from './xy-axes';
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
  /** Points joined by a dashed line (e.g. the Pareto front), in x order. */
  front?: { x: number; y: number }[];
  /** Legend text of the front line. */
  frontLabel?: string;
}

const WIDTH = 760;
const HEIGHT = 340;
const PAD = { left: 64, right: 24, top: 20, bottom: 48 };

const LABEL_HEIGHT = 12;

/**
 * Label positions: right of a point (left of it in the right third of the plot), moved down
 * until they no longer overlap an earlier label, so coinciding points stay readable.
 */
function placeLabels(points: readonly { cx: number; cy: number; label: string }[]): string[] {
  const placed: { left: number; right: number; y: number }[] = [];
  return points.map(({ cx, cy, label }) => {
    const leftOfPoint = cx > PAD.left + ((WIDTH - PAD.left - PAD.right) * 2) / 3;
    const width = label.length * 6;
    const left = leftOfPoint ? cx - 9 - width : cx + 9;
    let y = cy - 7;
    while (placed.some((box) => Math.abs(box.y - y) < LABEL_HEIGHT && box.left < left + width && left < box.right)) y += LABEL_HEIGHT;
    placed.push({ left, right: left + width, y });
    return text(leftOfPoint ? cx - 9 : cx + 9, y, label, { class: 'point-label', 'text-anchor': leftOfPoint ? 'end' : 'start' });
  });
}

/** Points with labels, linear axes from 0. */
export function scatterChart(spec: ScatterSpec): string {
  // 10% headroom keeps the largest point and its label off the plot's edge.
  const xTicks = niceTicks(Math.max(0, ...spec.points.map((p) => p.x)) * 1.1);
  const yTicks = niceTicks(spec.yMax ?? Math.max(0, ...spec.points.map((p) => p.y)));
  const { x, y, markup: axes } = xyAxes({ width: WIDTH, height: HEIGHT, pad: PAD }, xTicks, yTicks, spec.xLabel, spec.yLabel);
  const points = spec.points.map((p) => tag('circle', { cx: x(p.x), cy: y(p.y), r: 6, fill: seriesColor(p.series), 'fill-opacity': 0.85, stroke: '#fff' }));
  const front = spec.front && spec.front.length > 0
    ? [
        tag('polyline', { points: polylinePoints([...spec.front].sort((a, b) => a.x - b.x), x, y), fill: 'none', stroke: '#57606a', 'stroke-dasharray': '5 4', class: 'front' }),
        ...(spec.frontLabel ? [text(WIDTH - PAD.right, PAD.top - 6, `- - ${spec.frontLabel}`, { 'text-anchor': 'end', class: 'tick' })] : []),
      ]
    : [];
  const labels = placeLabels(spec.points.map((p) => ({ cx: x(p.x), cy: y(p.y), label: p.label })));
  return svg(
    WIDTH,
    HEIGHT,
    spec.title,
    ...axes,
    ...front,
    ...points,
    ...labels,
  );
}
