import { niceTicks } from './scale';
import { seriesLegend } from './legend';
import { polylinePoints, xyAxes } from './xy-axes';
import { seriesColor } from './palette';
import { svg, tag } from './svg';

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
  const { x, y, markup: axes } = xyAxes({ width: WIDTH, height: HEIGHT, pad: PAD }, xTicks, yTicks, spec.xLabel, spec.yLabel);
  const lines = spec.lines.map((line, i) => tag('polyline', { points: polylinePoints(line.points, x, y), fill: 'none', stroke: seriesColor(i), 'stroke-width': 2 }));
  return svg(WIDTH, HEIGHT, spec.title, ...axes, ...lines, ...seriesLegend(spec.lines.map((line) => line.label), PAD.left, 220));
}
