import { lineChart } from '../../report/render/charts/line-chart';
import { cell, type ExplorerChart } from './explorer-chart';
import { learningWindow, rollingAccuracy, type LearningStep } from './learning-curve';

/** A learning method's scored verifications of one model (ToE with an online policy). */
export interface LearningSeries {
  label: string;
  steps: LearningStep[];
}

/** ToE's learning curve: rolling accuracy as the online policy sees more claims, one line per method × model. */
export function learningCurveChart(series: readonly LearningSeries[]): ExplorerChart {
  const curves = series.map((s) => ({ label: s.label, window: learningWindow(s.steps.length), points: rollingAccuracy(s.steps) }));
  return {
    id: 'learning',
    title: 'Learning curve (ToE, online policy)',
    svg: lineChart({
      title: 'Learning curve: rolling accuracy as the online policy learns',
      lines: curves.map((c) => ({ label: `${c.label} (last ${c.window})`, points: c.points })),
      xLabel: 'claims verified',
      yLabel: 'rolling accuracy',
      yMax: 1,
    }),
    table: {
      columns: ['method · model', 'claims verified', 'rolling accuracy', 'window'],
      rows: curves.flatMap((c) => c.points.map((p) => [c.label, p.x, cell(p.y), c.window])),
    },
  };
}
