import type { ConfusionMatrix } from '../../../metrics';
import { goldCount } from '../../../metrics';
import { heatColor } from './palette';
import { svg, tag, text } from './svg';

const CELL = 84;
const LEFT = 110;
const TOP = 64;

function cellMarkup(x: number, y: number, count: number, share: number, invalid: boolean): string {
  const fill = heatColor(share, invalid);
  return (
    tag('rect', { x, y, width: CELL - 2, height: CELL - 2, fill, stroke: '#d0d7de' }) +
    text(x + CELL / 2 - 1, y + CELL / 2 + 4, String(count), { 'text-anchor': 'middle', class: share > 0.55 ? 'on-dark' : 'on-light' })
  );
}

/** Confusion matrix heatmap: rows gold, columns predicted plus the invalid/failed bucket (unparseable answers and failed verifications); shading = share of the gold row. */
export function confusionHeatmap(matrix: ConfusionMatrix, title: string): string {
  const { labels } = matrix;
  const columns = [...labels, 'invalid/failed'];
  const width = LEFT + columns.length * CELL + 16;
  const height = TOP + labels.length * CELL + 16;
  const header = columns.map((label, c) => text(LEFT + c * CELL + CELL / 2, TOP - 8, label, { 'text-anchor': 'middle', class: 'tick' }));
  const rows = labels.flatMap((label, r) => {
    const y = TOP + r * CELL;
    const total = goldCount(matrix, r) || 1;
    const counts = [...(matrix.counts[r] ?? []), matrix.invalid[r] ?? 0];
    return [
      text(LEFT - 8, y + CELL / 2 + 4, label, { 'text-anchor': 'end', class: 'tick' }),
      ...counts.map((count, c) => cellMarkup(LEFT + c * CELL, y, count, count / total, c === labels.length)),
    ];
  });
  return svg(
    width,
    height,
    title,
    text(LEFT, 18, 'predicted →', { class: 'axis-label' }),
    text(8, TOP - 8, 'gold ↓', { class: 'axis-label' }),
    ...header,
    ...rows,
  );
}
