/** Colour-blind-safe series colours (Okabe–Ito) and the heatmap ramp. */
export const SERIES_COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length] ?? '#0072B2';
}

function mix(from: number[], to: number[], share: number): string {
  const channel = (i: number): string => Math.round((from[i] ?? 0) + ((to[i] ?? 0) - (from[i] ?? 0)) * share).toString(16).padStart(2, '0');
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

const WHITE = [255, 255, 255];

/** Fill for a share in [0, 1]: white to blue, or white to orange for the invalid bucket. */
export function heatColor(share: number, invalid = false): string {
  return mix(WHITE, invalid ? [213, 94, 0] : [8, 69, 148], Math.max(0, Math.min(1, share)));
}
