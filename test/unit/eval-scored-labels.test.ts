import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { protocolScheme } from '../../src/labels';
import { classificationReport, confusionMatrix, macroF1, paperRoundedReport, type LabelPair } from '../../src/metrics';
import { buildReport, type GroupReport } from '../../src/report';
import { runDatasetScheme } from '../../src/report/dataset-scheme';
import { projectRoot } from '../../src/project-root';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { manifest, verdict } from '../support/report-fixtures';

const THREE = ['SUPPORTED', 'REFUTED', 'NEI'] as const;
type Three = (typeof THREE)[number];

function pairs(gold: Three[], predicted: (Three | null)[]): LabelPair<Three>[] {
  return gold.map((g, i) => ({ gold: g, predicted: predicted[i] ?? null }));
}

/** A SciFact run as the MERMAID sweep configures it (NEI claims dropped) or as ToE's 3-way stand-in does. */
function scifactRun(dropLabels: ['NEI'] | undefined, verdicts: [string, string][]) {
  const base = manifest('run-scifact');
  return buildReport(
    {
      manifest: {
        ...base,
        config: { ...base.config, datasets: [{ name: 'scifact', file: 'scifact.jsonl', format: 'auto', ...(dropLabels ? { dropLabels } : {}) }], methods: ['mermaid'] },
      },
      verdicts: verdicts.map(([claimId, label]) => verdict(claimId, label, { dataset: 'scifact', method: 'mermaid' })),
      claims: [],
      failures: [],
      warnings: [],
    },
    new Map([['s1', 'SUPPORT'], ['s2', 'SUPPORT'], ['s3', 'CONTRADICT'], ['s4', 'CONTRADICT']]),
    { bootstrap: { resamples: 50 } },
  );
}

function onlyGroup(groups: GroupReport[]): GroupReport {
  expect(groups).toHaveLength(1);
  return groups[0]!;
}

describe('the scored label set is the protocol\'s', () => {
  it('MERMAID drops SciFact\'s NEI claims, so SciFact is scored on SUPPORTED/REFUTED; without the drop it stays 3-way', () => {
    expect(protocolScheme('scifact', ['NEI'])).toBe('binary');
    expect(protocolScheme('scifact')).toBe('three-way');
    expect(protocolScheme('averitec', ['NEI'])).toBe('binary');
    expect(protocolScheme('hover')).toBe('binary');
  });

  it('a perfect SciFact run under the MERMAID protocol has macro-F1 1.0 (it was 0.667 with an empty NEI class)', () => {
    const group = onlyGroup(scifactRun(['NEI'], [['s1', 'SUPPORT'], ['s2', 'SUPPORT'], ['s3', 'CONTRADICT'], ['s4', 'CONTRADICT']]).groups);
    expect(group.scheme).toBe('binary');
    expect(group.confusion.labels).toEqual(['SUPPORTED', 'REFUTED']);
    expect(group.macroF1.estimate).toBe(1);
    expect(group.weightedF1.estimate).toBe(1);
    expect(group.accuracy.estimate).toBe(1);
  });

  it('under the MERMAID protocol an NEI answer is a negative, as MERMAID counts any non-true answer (mermaid.md §7.3)', () => {
    // gold S S R R; pred S NEI→R R R. S: P=1 R=1/2 F1=2/3; R: P=2/3 R=1 F1=4/5. Macro = (2/3 + 4/5) / 2 = 11/15.
    const group = onlyGroup(scifactRun(['NEI'], [['s1', 'SUPPORT'], ['s2', 'NEI'], ['s3', 'CONTRADICT'], ['s4', 'CONTRADICT']]).groups);
    expect(group.confusion.counts).toEqual([[1, 1], [0, 2]]);
    expect(group.macroF1.estimate).toBeCloseTo(11 / 15, 12);
  });

  it('the 3-way protocol keeps an NEI answer as NEI, a class with predictions and no gold that enters the mean with F1 0', () => {
    // gold S S R R; pred S N R R. S: P=1 R=1/2 F1=2/3; R: P=1 R=1 F1=1; N: P=0 R=0 F1=0. Macro = (2/3 + 1 + 0) / 3 = 5/9.
    const group = onlyGroup(scifactRun(undefined, [['s1', 'SUPPORT'], ['s2', 'NEI'], ['s3', 'CONTRADICT'], ['s4', 'CONTRADICT']]).groups);
    expect(group.scheme).toBe('three-way');
    expect(group.macroF1.estimate).toBeCloseTo(5 / 9, 12);
  });
});

describe('the paper-protocol sweeps score each dataset on its paper\'s label set', () => {
  const schemes = (name: string): Record<string, string> => {
    const config = runConfigSchema.parse(YAML.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'sweeps', name), 'utf8')));
    return Object.fromEntries(config.datasets.map((dataset) => [dataset.name, runDatasetScheme({ config }, dataset.name)]));
  };

  it('MERMAID (Tables 1–2): every dataset binary, SciFact included', () => {
    expect(schemes('mermaid.yaml')).toEqual({ factool_qa: 'binary', bingcheck: 'binary', factcheck_bench: 'binary', hover: 'binary', scifact: 'binary' });
  });

  it('EMULATE binary; ToE 3-class (SciFact keeps NEI there); Tool-MAD 3-way on FEVER', () => {
    expect(Object.values(schemes('emulate.yaml'))).toEqual(['binary', 'binary', 'binary', 'binary']);
    expect(schemes('toe.yaml')).toEqual({ fever: 'three-way', scifact: 'three-way' });
    expect(schemes('tool-mad.yaml')).toMatchObject({ fever: 'three-way' });
  });
});

describe('a class with no gold and no predictions never enters an average', () => {
  it('a perfect run without NEI claims scores 1.0 on a 3-way label set', () => {
    const gold: Three[] = ['SUPPORTED', 'SUPPORTED', 'REFUTED'];
    const report = classificationReport(confusionMatrix(pairs(gold, gold), THREE));
    expect(report.perClass[2]).toMatchObject({ label: 'NEI', f1: 0, support: 0 });
    expect(report.macroF1).toBe(1);
    expect(report.weightedF1).toBe(1);
    expect(paperRoundedReport(confusionMatrix(pairs(gold, gold), THREE)).macroF1).toBe(1);
  });

  it('mixed example by hand: the empty class is left out of macro-F1, weighted-F1 and the paper-rounded macro-F1', () => {
    // gold S S S R R; pred S S R R S (no NEI anywhere).
    // S: P=2/3 R=2/3 F1=2/3 · R: P=1/2 R=1/2 F1=1/2. Macro = (2/3 + 1/2) / 2 = 7/12 (not 7/18 over three classes).
    // Weighted = (2/3·3 + 1/2·2) / 5 = 3/5.
    const matrix = confusionMatrix(
      pairs(['SUPPORTED', 'SUPPORTED', 'SUPPORTED', 'REFUTED', 'REFUTED'], ['SUPPORTED', 'SUPPORTED', 'REFUTED', 'REFUTED', 'SUPPORTED']),
      THREE,
    );
    expect(macroF1(matrix)).toBeCloseTo(7 / 12, 12);
    expect(classificationReport(matrix).weightedF1).toBeCloseTo(3 / 5, 12);
    // Rounded class F1s 0.67 and 0.5: (0.67 + 0.5) / 2 = 0.585 → 0.58 (the double lies just below .585).
    expect(paperRoundedReport(matrix).macroF1).toBe(0.58);
  });

  it('an unparseable answer keeps its gold class in the averages (it is gold, counted as an error)', () => {
    // gold S R N; pred S R invalid. S: F1=1 · R: F1=1 · N: P=0 R=0 F1=0, present through its gold. Macro = 2/3.
    const matrix = confusionMatrix(pairs(['SUPPORTED', 'REFUTED', 'NEI'], ['SUPPORTED', 'REFUTED', null]), THREE);
    expect(macroF1(matrix)).toBeCloseTo(2 / 3, 12);
  });

  it('no scored claim gives 0, not NaN', () => {
    expect(macroF1(confusionMatrix([], THREE))).toBe(0);
  });
});
