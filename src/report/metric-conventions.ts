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
      convention: 'unweighted mean of the class F1s: on a binary scheme over both classes always; on a larger one over the classes with a gold claim or a prediction in the whole group (a bootstrap resample keeps that class set)',
    },
    { metric: 'weighted-F1', convention: 'class F1s weighted by their share of the gold labels' },
    { metric: 'intervals', convention: 'percentile-bootstrap 95% CIs resampling claims, each with all its repeats (cluster bootstrap), on unrounded values' },
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
        metric: 'paper headline (protocol: paper)',
        convention:
          "each method's own reported number: Tool-MAD EM accuracy in % to one decimal; ToE the median accuracy of its trials (the sweep's repeats); MERMAID the mean of both class F1s to two decimals; EMULATE and FIRE eval.ipynb's rounded macro-F1",
      },
      {
        metric: 'no-answer fallbacks (protocol: paper)',
        convention: "Tool-MAD's NEI and MERMAID's default label count as their papers' code counts them; rag's and llm-only's stay invalid",
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
      metric: 'no-answer fallbacks (protocol: verity)',
      convention: "rag's and llm-only's NEI, Tool-MAD's NEI without any label and MERMAID's default label are no valid answer: the invalid column",
    },
    {
      metric: 'FIRE without a final answer (protocol: verity)',
      convention: 'scored as no valid answer (the invalid/failed column, wrong for every gold class), never as REFUTED',
    },
  ];
}
