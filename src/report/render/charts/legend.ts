import { seriesColor } from './palette';
import { tag, text } from './svg';

/** One swatch and name per series, in a row from `left` at the top of a chart. */
export function seriesLegend(series: readonly string[], left: number, spacing = 150): string[] {
  return series.flatMap((name, i) => [
    tag('rect', { x: left + i * spacing, y: 10, width: 12, height: 12, fill: seriesColor(i) }),
    text(left + i * spacing + 18, 21, name, { class: 'tick' }),
  ]);
}
