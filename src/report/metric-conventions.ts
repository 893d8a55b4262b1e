import type { RunProtocol } from '../runs/run-manifest';
import type { MetricConvention } from './report-types';

/** How the report computes and rounds each metric under a protocol (report.json, report.md, report.html). */
export function metricConventions(protocol: RunProtocol): MetricConvention[] {
  const common: MetricConvention[] = [
    {
      metric: 'label set',
      convention:
        "each dataset is scored on its protocol's scheme (binary: SUPPORTED/REFUTED; three-way: SUPPORTED/REFUTED/NEI); on a binary scheme every answer other than SUPPORTED counts as REFUTED",
    },
    {
      metric: 'accuracy',
      convention: 'correct / scored claims; a failed verification or an answer that does not parse is wrong',
    },
    {
      metric: 'per-class P/R/F1',
      convention: 'P = 0 when a class is never predicted, R = 0 when it has no gold claims; F1 from P and R',
    },
    {
      metric: 'macro-F1',
      convention: 'unweighted mean of the class F1s over the classes of the scheme with a gold claim or a prediction (an empty class never enters the mean)',
    },
    { metric: 'weighted-F1', convention: 'class F1s weighted by their share of the gold labels' },
    { metric: 'intervals', convention: 'percentile-bootstrap 95% CIs over the scored claims, on unrounded values' },
  ];
  if (protocol === 'paper') {
    return [
      ...common,
      {
        metric: 'rounding (protocol: paper)',
        convention:
          "EMULATE's eval.ipynb (emulate.md §5.3): P and R rounded to 2 decimals; F1 from the unrounded P and R, then rounded; macro- and weighted-F1 from the rounded class F1s, rounded again; Python's round (ties to even). The papers' tables report these; the CIs stay unrounded",
      },
      {
        metric: 'FIRE without a final answer (protocol: paper)',
        convention: "left out of the metrics and counted as excluded, as FIRE's evaluate_file skips failed claims (emulate.md §6.1)",
      },
    ];
  }
  return [
    ...common,
    { metric: 'rounding (protocol: verity)', convention: 'none: every metric is computed unrounded and shown to 3 decimals' },
    {
      metric: 'FIRE without a final answer (protocol: verity)',
      convention: 'scored as no valid answer (the invalid/failed column, wrong for every gold class), never as REFUTED',
    },
  ];
}
