/**
 * Indices of the points no other point dominates, where less x (cost, tokens) and more y
 * (macro-F1) are better: a point is dominated by one at most as costly and at least as good, and
 * strictly better in one of the two. Coinciding points are all on the front.
 */
export function paretoFront(points: readonly { x: number; y: number }[]): number[] {
  return points.flatMap((p, i) =>
    points.some((q) => q.x <= p.x && q.y >= p.y && (q.x < p.x || q.y > p.y)) ? [] : [i],
  );
}
