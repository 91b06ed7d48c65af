/**
 * The sweeper's CloudWatch metric, published through the Embedded Metric Format (Powertools Metrics):
 * one JSON line on stdout per sweep, which CloudWatch Logs turns into the metric — no API call, no
 * extra permission. The alarm ("embedding pending over 24 hours") reads it:
 * namespace InvestigationAnalysis, metric PendingOver24hAfterSweep, dimension service, threshold > 0.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SWEEPER_METRIC } from '../../../lib/runtime-names';
import { env, ENV } from '../config';
import type { SweepReport } from './report';

export { SWEEPER_METRIC };

const serviceName = (): string => env(ENV.serviceName) ?? 'investigation-analysis';

let shared: Metrics | undefined;

/** The process's metrics emitter (created on first use, so POWERTOOLS_METRICS_DISABLED set before it counts). */
const sweeperMetrics = (): Metrics => (shared ??= new Metrics({ namespace: SWEEPER_METRIC.namespace, serviceName: serviceName() }));

/** Emits PendingOver24hAfterSweep (Count) with the rest of the report as metadata (in the log line, not metrics). */
export const publishSweepMetrics = (report: SweepReport, metrics: Metrics = sweeperMetrics()): void => {
  metrics.addMetric(SWEEPER_METRIC.pendingOver24h, MetricUnit.Count, report.pendingOver24hAfterSweep);
  for (const key of ['embedded', 'failed', 'remaining', 'stopped_by'] as const) metrics.addMetadata(key, String(report[key]));
  metrics.publishStoredMetrics();
};
