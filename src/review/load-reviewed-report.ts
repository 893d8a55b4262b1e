import type { Client } from '@elastic/elasticsearch';
import { loadRunReport, type BuildReportOptions, type RunReport } from '../report';
import { reviewedMetrics } from './reviewed-metrics';
import { ReviewStore } from './review-store';

/** The run's report, with `reviewed` (metrics with disputed gold labels set aside) when the run has reviews. */
export async function loadReviewedReport(client: Client, prefix: string, runId: string, options: BuildReportOptions = {}): Promise<RunReport> {
  const report = await loadRunReport(client, prefix, runId, options);
  const reviews = await new ReviewStore(client, prefix).forRun(runId);
  return reviews.length === 0 ? report : { ...report, reviewed: reviewedMetrics(report, reviews, options.bootstrap) };
}
