import { formatDistributionTable } from './action-distribution';
import type { TrainingReport } from './run-training';

/** A training run's report as the lines `verity toe train` prints. */
export function formatTrainingReport(report: TrainingReport): string {
  const lines: string[] = [];
  const e = report.episodes;
  lines.push(`episodes: ${e.used} used of ${e.read} read (${e.steps} steps; skipped ${e.skippedEmpty} empty, ${e.skippedOtherLayout} of another state layout) from ${e.sources.join(', ')}`);
  lines.push(`mean discounted return of the logged episodes: ${report.meanReturn.toFixed(4)}`);
  lines.push('');
  lines.push('action distribution over the recorded states (mean π(a|s); argmax share):');
  lines.push(
    formatDistributionTable([
      { name: 'logged actions', values: report.loggedActions },
      { name: 'before π', values: report.before.meanProbability },
      { name: 'after π', values: report.after.meanProbability },
      { name: 'before argmax', values: report.before.argmaxShare },
      { name: 'after argmax', values: report.after.argmaxShare },
    ]),
  );
  lines.push('');
  lines.push('updates (pass/group: episodes, mean return, loss before → after, clip fraction, KL to π_ref, entropy, grad norm):');
  const shown = report.updates.length <= 24 ? report.updates : [...report.updates.slice(0, 12), undefined, ...report.updates.slice(-12)];
  for (const u of shown) {
    if (!u) {
      lines.push(`  … ${report.updates.length - 24} more …`);
      continue;
    }
    lines.push(
      `  ${u.pass}/${u.group}: ${u.episodes} ep, return ${u.meanReturn.toFixed(4)}, loss ${u.lossBefore.toFixed(5)} → ${u.lossAfter.toFixed(5)}, clip ${u.clipFraction.toFixed(2)}, KL ${u.kl.toExponential(2)}, H ${u.entropy.toFixed(4)}, |g| ${u.gradNorm.toFixed(4)}`,
    );
  }
  lines.push('');
  lines.push(`weights ${report.version}${report.parentVersion ? ` (from ${report.parentVersion})` : ''}, state layout ${report.stateLayoutVersion}: ${report.weightsFile}`);
  return `${lines.join('\n')}\n`;
}
