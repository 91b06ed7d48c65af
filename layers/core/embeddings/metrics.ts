/**
 * The sweeper's CloudWatch metric (EMF, ../metrics.ts): one line per sweep. The alarm ("embedding
 * pending over 24 hours") reads it: PendingOver24hAfterSweep in the service's namespace, threshold > 0.
 */
import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import { SERVICE_METRICS, serviceMetrics } from '#core/metrics';
import type { SweepReport } from './report';

/** Emits PendingOver24hAfterSweep (Count) with the rest of the report as metadata (in the log line, not metrics). */
export const publishSweepMetrics = (report: SweepReport, metrics: Metrics = serviceMetrics()): void => {
  metrics.addMetric(SERVICE_METRICS.names.pendingOver24h, MetricUnit.Count, report.pendingOver24hAfterSweep);
  for (const key of ['embedded', 'failed', 'remaining', 'stopped_by'] as const) metrics.addMetadata(key, String(report[key]));
  metrics.publishStoredMetrics();
};
