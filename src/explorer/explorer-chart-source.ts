import type { ExplorerFilter } from './explorer-filter';
import type { ExplorerOptions } from './explorer-data';
import { explorerCharts } from './charts/explorer-charts';
import type { ExplorerChart } from './charts/explorer-chart';
import { loadRunReport } from '../report/load-run-report';
import type { RunReport } from '../report/report-types';
import { learningOrder, LEARNING_METHODS } from './learning-order';
import { RunNotFoundError, RunWithoutVerdictsError } from '../runs/read-run';

/** The report is re-read after this long whatever happened (a verdict replaced in place). */
const REPORT_TTL_MS = 30_000;
/**
 * A report missing verdicts the filter selects (a run going on) is re-read once it is this old, or
 * four times as old as its reading took if longer: a big run's charts stay current without the
 * explorer spending most of its time re-reading it.
 */
const REPORT_MIN_AGE_MS = 4_000;
/** Verifications one chart request draws; beyond, the charts say they show the first ones. */
export const CHART_MAX_VERIFICATIONS = 50_000;

export interface ExplorerChartsAnswer {
  charts: ExplorerChart[];
  /** Verifications drawn. */
  verifications: number;
  /** More verifications match than CHART_MAX_VERIFICATIONS. */
  truncated: boolean;
  /** Why there are no charts, or what they leave out. */
  note?: string;
}

type IdSelector = (filter: ExplorerFilter, limit: number) => Promise<{ ids: Set<string>; truncated: boolean }>;

interface LoadedRun {
  at: number;
  /** How long reading the report took. */
  loadMs: number;
  /** Workflow ids of the report's verifications. */
  drawn: Set<string>;
  report: RunReport;
  learningOrder: Map<string, number>;
}

/**
 * The explorer's charts, live with its filters: the run's report rows (gold labels joined as the
 * report joins them) narrowed to the verifications the filter selects, then grouped and drawn.
 */
export class ExplorerChartSource {
  private loaded: Promise<LoadedRun | undefined> | undefined;

  constructor(
    private readonly options: ExplorerOptions,
    private readonly selectIds: IdSelector,
  ) {}

  async charts(filter: ExplorerFilter): Promise<ExplorerChartsAnswer> {
    const { ids, truncated } = await this.selectIds(filter, CHART_MAX_VERIFICATIONS);
    const loaded = await this.run(ids);
    if (!loaded) return { charts: [], verifications: 0, truncated: false, note: 'no charts: the run has no manifest or no verdicts yet (charts draw runs of `verity sweep run`)' };
    const { report, learningOrder } = loaded;
    const rows = report.claims.filter((row) => row.workflowId !== null && ids.has(row.workflowId));
    return { charts: explorerCharts({ rows, manifest: report.manifest, learningOrder }), verifications: rows.length, truncated };
  }

  /** The loaded report, read again when it is stale for the verifications `selected`. */
  private run(selected: Set<string>): Promise<LoadedRun | undefined> {
    const current = this.loaded;
    if (current) {
      return current.then((run) => {
        if (run && !isStale(run, selected, Date.now())) return run;
        if (this.loaded === current) this.loaded = undefined;
        return this.run(selected);
      });
    }
    const loading = this.load();
    this.loaded = loading;
    loading.catch(() => {
      if (this.loaded === loading) this.loaded = undefined;
    });
    return loading;
  }

  /** The run's report rows; none for a run without a manifest (ad hoc verifications) or without verdicts yet. */
  private async load(): Promise<LoadedRun | undefined> {
    const { client, prefix, runId } = this.options;
    const startedAt = Date.now();
    const report = await loadRunReport(client, prefix, runId).catch((err: unknown) => {
      if (err instanceof RunNotFoundError || err instanceof RunWithoutVerdictsError) return undefined;
      throw err;
    });
    if (!report) return undefined;
    const learns = report.claims.some((row) => LEARNING_METHODS.includes(row.method));
    const order = learns ? await learningOrder(client, prefix, runId) : new Map<string, number>();
    const drawn = new Set(report.claims.flatMap((row) => (row.workflowId === null ? [] : [row.workflowId])));
    return { at: Date.now(), loadMs: Date.now() - startedAt, drawn, report, learningOrder: order };
  }
}

function isStale(run: LoadedRun, selected: Set<string>, now: number): boolean {
  const age = now - run.at;
  if (age >= REPORT_TTL_MS) return true;
  if (age < Math.max(REPORT_MIN_AGE_MS, 4 * run.loadMs)) return false;
  for (const id of selected) if (!run.drawn.has(id)) return true;
  return false;
}
