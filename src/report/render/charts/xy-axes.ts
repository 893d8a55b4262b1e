import { linearScale, tickLabel, type Scale } from './scale';
import { tag, text } from './svg';

export interface XyFrame {
  width: number;
  height: number;
  pad: { left: number; right: number; top: number; bottom: number };
}

/** Scales from 0 to the last tick of each axis, the grid with its tick labels, and the two axis titles. */
export function xyAxes(frame: XyFrame, xTicks: readonly number[], yTicks: readonly number[], xLabel: string, yLabel: string): { x: Scale; y: Scale; markup: string[] } {
  const { width, height, pad } = frame;
  const x = linearScale([0, xTicks[xTicks.length - 1] ?? 1], [pad.left, width - pad.right]);
  const y = linearScale([0, yTicks[yTicks.length - 1] ?? 1], [height - pad.bottom, pad.top]);
  const middle = (pad.top + height - pad.bottom) / 2;
  const markup = [
    ...xTicks.flatMap((t) => [
      tag('line', { x1: x(t), x2: x(t), y1: pad.top, y2: height - pad.bottom, class: 'grid' }),
      text(x(t), height - pad.bottom + 16, tickLabel(t), { 'text-anchor': 'middle', class: 'tick' }),
    ]),
    ...yTicks.flatMap((t) => [
      tag('line', { x1: pad.left, x2: width - pad.right, y1: y(t), y2: y(t), class: 'grid' }),
      text(pad.left - 6, y(t) + 4, tickLabel(t), { 'text-anchor': 'end', class: 'tick' }),
    ]),
    text((pad.left + width - pad.right) / 2, height - 10, xLabel, { 'text-anchor': 'middle', class: 'axis-label' }),
    text(16, middle, yLabel, { 'text-anchor': 'middle', class: 'axis-label', transform: `rotate(-90 16 ${middle})` }),
  ];
  return { x, y, markup };
}

/** A polyline's `points` attribute (one decimal). */
export function polylinePoints(points: readonly { x: number; y: number }[], x: Scale, y: Scale): string {
  return points.map((p) => `${Math.round(x(p.x) * 10) / 10},${Math.round(y(p.y) * 10) / 10}`).join(' ');
}
