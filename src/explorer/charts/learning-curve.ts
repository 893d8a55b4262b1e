/** One scored verification of a learning method, in the order its policy saw the claims. */
export interface LearningStep {
  /** Position in that order (claim-order schedule) or the finish time in ms. */
  order: number;
  correct: boolean;
}

/** Claims in the rolling window: a fifth of the claims, at least 5 and at most 25. */
export function learningWindow(claims: number): number {
  return Math.min(25, Math.max(5, Math.round(claims / 5)));
}

/**
 * The learning curve: after each claim (1, 2, …, in `order`), the accuracy over the last `window`
 * scored claims (fewer at the start).
 */
export function rollingAccuracy(steps: readonly LearningStep[], window = learningWindow(steps.length)): { x: number; y: number }[] {
  const ordered = [...steps].sort((a, b) => a.order - b.order);
  return ordered.map((_, i) => {
    const recent = ordered.slice(Math.max(0, i + 1 - window), i + 1);
    return { x: i + 1, y: recent.filter((step) => step.correct).length / recent.length };
  });
}
