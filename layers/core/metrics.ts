/**
 * The service's CloudWatch metrics (SERVICE_METRICS in manifest/runtime-names.ts) through the Embedded Metric
 * Format (Powertools Metrics): a JSON line on stdout that CloudWatch Logs turns into the metric — no API
 * call, no extra permission. The alarms read these; the log marker each one goes with stays beside it.
 *
 * Each event is published at once, a line of its own, rather than stored for a flush at the end of the
 * invocation: the events are rare, the AI ones carry their region as a dimension (one value per line),
 * and nothing waits on a flush that an event at cold start, a crash or a process without a handler (the
 * twin's own, a CLI) would never reach. A flush per invocation would also warn on every invocation that
 * counted nothing.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SERVICE_METRICS, type ServiceMetric } from '#manifest/runtime-names';
import { serviceName } from './config';

export { SERVICE_METRICS };

let shared: Metrics | undefined;

/** The process's emitter (created on first use, so POWERTOOLS_METRICS_DISABLED set before it counts). */
export const serviceMetrics = (): Metrics => (shared ??= new Metrics({ namespace: SERVICE_METRICS.namespace, serviceName: serviceName() }));

/** One occurrence of an event an alarm or the dashboard counts; `region` for the AI ones. */
export const countEvent = (metric: ServiceMetric, region?: string): void => {
  const line = serviceMetrics().singleMetric();
  if (region) line.addDimension(SERVICE_METRICS.regionDimension, region);
  line.addMetric(SERVICE_METRICS.names[metric], MetricUnit.Count, 1);
};
