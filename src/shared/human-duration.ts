/**
 * A duration for people to read: "850 ms", "4.2 s", "42 s", "3 min 30 s", "2 h 5 min", "3 d 4 h"
 * (two units at most, the smaller one dropped when it is 0); "–" when unknown.
 *
 * Self-contained on purpose (no imports, no nested functions, ES2020): the explorer's browser script
 * embeds this function's source, so the report, the CLI and the explorer say durations the same way.
 */
export function humanDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) return sign + Math.round(abs) + ' ms';
  if (abs < 9950) return sign + Math.round(abs / 100) / 10 + ' s';
  const seconds = Math.round(abs / 1000);
  if (seconds < 60) return sign + seconds + ' s';
  if (seconds < 3600) return sign + Math.floor(seconds / 60) + ' min' + (seconds % 60 > 0 ? ' ' + (seconds % 60) + ' s' : '');
  const minutes = Math.round(abs / 60000);
  if (minutes < 1440) return sign + Math.floor(minutes / 60) + ' h' + (minutes % 60 > 0 ? ' ' + (minutes % 60) + ' min' : '');
  const hours = Math.round(abs / 3600000);
  return sign + Math.floor(hours / 24) + ' d' + (hours % 24 > 0 ? ' ' + (hours % 24) + ' h' : '');
}
