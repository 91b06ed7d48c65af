/**
 * Operations: the alarm topic, the alarms of lib/alarms.ts rendered onto the resources the other stacks
 * built, the operators' dashboard, and the health canary. docs/runbook.md is the operator's page for all
 * of it. The service's own metrics (AI throttles, audit failures, …) are EMF lines its functions write
 * beside the matching log markers (layers/core/metrics.ts); the rest are AWS metrics.
 */
import * as path from 'node:path';
import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as synthetics from 'aws-cdk-lib/aws-synthetics';
import type { Construct } from 'constructs';
import { modelIdForRegion } from '#core/ai/models';
import { allocatedVcpus, COMPUTE_RULES, resolveAlarms, type AlarmRule, type AlarmRuleId, type MissingData } from '../alarms';
import { httpRoutes, queues as queueSpecs, type FunctionSpec, type QueueName } from '#manifest';
import { PROJECT_ROOT } from '../paths';
import { RETENTION_LOG_MARKER, SERVICE_METRICS, type ServiceMetric } from '#manifest/runtime-names';
import type { StageConfig } from '../stage-config';
import {
  apiAccessLogGroupName,
  databaseInstanceIdentifier,
  deadLetterQueueName,
  functionLogGroupName,
  queueName,
  queueNamed,
  scheduleFailuresQueueName,
} from './names';
import { acknowledgeMatching } from './nag';
import { scheduleTriggers } from './schedules-stack';
import { functionName, serviceNameOf } from './service-function';
import { readShared, type SharedValue } from './shared-values';

export interface ObservabilityStackProps extends StackProps {
  config: StageConfig;
  /** every manifest function (its name and log group are fixed: names.ts) */
  functions: FunctionSpec[];
  /** the HTTP API's id and endpoint, as the API stack publishes them */
  api: { apiId: SharedValue; endpoint: SharedValue };
}

const MISSING_DATA: Record<MissingData, cloudwatch.TreatMissingData> = {
  breaching: cloudwatch.TreatMissingData.BREACHING,
  notBreaching: cloudwatch.TreatMissingData.NOT_BREACHING,
  missing: cloudwatch.TreatMissingData.MISSING,
};

/** The canary's code (lib/canary/health.js) and the route it reads. */
const CANARY_CODE = path.join(PROJECT_ROOT, 'lib', 'canary');
const HEALTH_PATH = httpRoutes().find((r) => r.fn.id === 'health')!.path;

export class ObservabilityStack extends Stack {
  readonly alarmTopic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly canary: synthetics.Canary;
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, { config, functions, api: publishedApi, ...props }: ObservabilityStackProps) {
    super(scope, id, props);
    const { prefix } = config;
    // what it watches, by fixed name or shared value (shared-values.ts): no reference into the watched stacks
    const watched = {
      functions: functions.map((spec) => ({
        spec,
        logGroup: logs.LogGroup.fromLogGroupName(this, `${spec.id}-logs`, functionLogGroupName(prefix, spec.id)),
      })),
      httpApi: apigw.HttpApi.fromHttpApiAttributes(this, 'HttpApi', {
        httpApiId: readShared(this, publishedApi.apiId),
        apiEndpoint: readShared(this, publishedApi.endpoint),
      }),
      /** the API stage's access log group (JSON lines with routeKey, status, latencyMs) */
      accessLogs: logs.LogGroup.fromLogGroupName(this, 'AccessLogs', apiAccessLogGroupName(prefix)),
      /** the manifest's queues, each with its dead-letter queue */
      queues: (Object.keys(queueSpecs) as QueueName[]).map((name) => ({
        name,
        queue: queueNamed(this, `${name}-queue`, queueName(prefix, name)),
        deadLetters: queueNamed(this, `${name}-dlq`, deadLetterQueueName(prefix, name)),
      })),
      scheduleDeadLetters: queueNamed(this, 'ScheduleFailures', scheduleFailuresQueueName(prefix)),
    };
    const databaseMetric = (metricName: string, window: cloudwatch.MetricOptions) =>
      new cloudwatch.Metric({
        namespace: 'AWS/RDS',
        metricName,
        dimensionsMap: { DBInstanceIdentifier: databaseInstanceIdentifier(prefix) },
        ...window,
      });
    const { rules, computeRule, maxConnections } = resolveAlarms(config.alarms, config.database.instanceType, config.canaryMinutes);

    // a customer-managed key: CloudWatch alarms cannot publish to a topic under the AWS-managed SNS key
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: `${prefix} alarm topic encryption`,
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'], // in a key policy, * is this key
      }),
    );
    this.alarmTopic = new sns.Topic(this, 'Alarms', {
      displayName: `${prefix} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    for (const address of config.alarmEmails) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(address));
    const notify = new SnsAction(this.alarmTopic);

    /** One alarm from a rule of the table: the rule's statistic, period, window and missing-data treatment. */
    const raise = (ruleId: AlarmRuleId, rule: AlarmRule, metric: cloudwatch.IMetric, subject?: string) => {
      const name = subject ? `${ruleId}-${subject}` : ruleId;
      const alarm = new cloudwatch.Alarm(this, name, {
        alarmName: `${prefix}-${name}`,
        alarmDescription:
          `${rule.summary}${subject ? ` [${subject}]` : ''}. Threshold: ${rule.comparison} ${rule.threshold} ${rule.unit}. ` +
          `Runbook: docs/runbook.md#${ruleId.toLowerCase()}`,
        metric,
        threshold: rule.threshold * (rule.scale ?? 1),
        comparisonOperator:
          rule.comparison === 'above'
            ? cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD
            : cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        evaluationPeriods: rule.evaluationPeriods,
        datapointsToAlarm: rule.evaluationPeriods,
        treatMissingData: MISSING_DATA[rule.missingData],
      });
      alarm.addAlarmAction(notify);
      alarm.addOkAction(notify);
      this.alarms.push(alarm);
      return alarm;
    };
    const windowOf = (rule: AlarmRule) => ({ statistic: rule.statistic, period: Duration.seconds(rule.periodSeconds) });

    // ── the service's own metrics (EMF) ──────────────────────────────────────────────────────
    const service = { [SERVICE_METRICS.dimension]: serviceNameOf(config) };
    const regions = [...new Set([config.ai.primaryRegion, config.ai.fallbackRegion])];
    const serviceMetric = (metric: ServiceMetric, options: cloudwatch.MetricOptions = {}) =>
      new cloudwatch.Metric({
        namespace: SERVICE_METRICS.namespace,
        metricName: SERVICE_METRICS.names[metric],
        dimensionsMap: service,
        ...options,
      });
    const perRegion = (metric: ServiceMetric, options: cloudwatch.MetricOptions) =>
      regions.map((region) =>
        serviceMetric(metric, {
          ...options,
          dimensionsMap: { ...service, [SERVICE_METRICS.regionDimension]: region },
          label: `${SERVICE_METRICS.names[metric]} ${region}`,
        }),
      );
    /** an AI event counted across regions (a metric with a dimension has no total of its own) */
    const allRegions = (metric: ServiceMetric, rule: AlarmRule) => {
      const parts = perRegion(metric, windowOf(rule));
      return new cloudwatch.MathExpression({
        expression: parts.map((_, i) => `FILL(r${i}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(parts.map((m, i) => [`r${i}`, m])),
        label: `${SERVICE_METRICS.names[metric]} (all regions)`,
        period: Duration.seconds(rule.periodSeconds),
      });
    };

    // ── AI, audit and quality markers ────────────────────────────────────────────────────────
    raise('aiThrottles', rules.aiThrottles, allRegions('aiThrottles', rules.aiThrottles));
    raise('aiFallbacks', rules.aiFallbacks, allRegions('aiFallbacks', rules.aiFallbacks));
    raise('aiSheds', rules.aiSheds, allRegions('aiSheds', rules.aiSheds));
    raise('auditFailures', rules.auditFailures, serviceMetric('auditFailures', windowOf(rules.auditFailures)));
    raise('qualityCheckFailures', rules.qualityCheckFailures, serviceMetric('qualityCheckFailures', windowOf(rules.qualityCheckFailures)));

    // ── database ─────────────────────────────────────────────────────────────────────────────
    const dbCpu = raise('databaseCpu', rules.databaseCpu, databaseMetric('CPUUtilization', windowOf(rules.databaseCpu)));
    const dbStorage = raise(
      'databaseFreeStorage',
      rules.databaseFreeStorage,
      databaseMetric('FreeStorageSpace', windowOf(rules.databaseFreeStorage)),
    );
    raise(
      'databaseConnections',
      rules.databaseConnections,
      new cloudwatch.MathExpression({
        expression: `100 * connections / ${maxConnections}`,
        usingMetrics: { connections: databaseMetric('DatabaseConnections', windowOf(rules.databaseConnections)) },
        label: `connections, % of max_connections (${maxConnections})`,
        period: Duration.seconds(rules.databaseConnections.periodSeconds),
      }),
    );

    // ── compute (Lambda Insights; lib/alarms.ts explains the CPU mapping) ────────────────────
    const computeMetrics: Record<(typeof COMPUTE_RULES)[number], cloudwatch.IMetric[]> = { computeCpu: [], computeMemory: [] };
    const computeAlarms: cloudwatch.Alarm[] = [];
    // metric ids unique across functions: the dashboard graphs all the expressions together
    watched.functions.forEach(({ spec }, i) => {
      const name = functionName(config, spec.id);
      const cpu = computeRule(spec.id, 'computeCpu');
      const cpuShare = new cloudwatch.MathExpression({
        expression: `100 * cpu${i} / (duration${i} * ${allocatedVcpus(spec.memoryMb).toFixed(4)})`,
        usingMetrics: {
          [`cpu${i}`]: new cloudwatch.Metric({
            namespace: 'LambdaInsights',
            metricName: 'cpu_total_time',
            dimensionsMap: { function_name: name },
            ...windowOf(cpu),
          }),
          [`duration${i}`]: new cloudwatch.Metric({
            namespace: 'AWS/Lambda',
            metricName: 'Duration',
            dimensionsMap: { FunctionName: name },
            ...windowOf(cpu),
          }),
        },
        label: `${spec.id} CPU %`,
        period: Duration.seconds(cpu.periodSeconds),
      });
      const memory = computeRule(spec.id, 'computeMemory');
      const memoryUse = new cloudwatch.Metric({
        namespace: 'LambdaInsights',
        metricName: 'memory_utilization',
        dimensionsMap: { function_name: name },
        label: `${spec.id} memory %`,
        ...windowOf(memory),
      });
      if (spec.memoryMb >= config.computeAlarmMinMemoryMb)
        computeAlarms.push(raise('computeCpu', cpu, cpuShare, spec.id), raise('computeMemory', memory, memoryUse, spec.id));
      computeMetrics.computeCpu.push(cpuShare);
      computeMetrics.computeMemory.push(memoryUse);
    });

    // ── API ──────────────────────────────────────────────────────────────────────────────────
    const api = watched.httpApi;
    const apiWindow = windowOf(rules.api5xxRate);
    const errorRate = new cloudwatch.MathExpression({
      expression: '100 * FILL(errors, 0) / requests',
      usingMetrics: { errors: api.metricServerError(apiWindow), requests: api.metricCount(apiWindow) },
      label: '5xx, % of requests',
      period: apiWindow.period,
    });
    raise('api5xxRate', rules.api5xxRate, errorRate);

    // ── sweeps ───────────────────────────────────────────────────────────────────────────────
    const pending = serviceMetric('pendingOver24h', windowOf(rules.embeddingPending));
    raise('embeddingPending', rules.embeddingPending, pending);
    const retentionRuns = serviceMetric('retentionRuns', windowOf(rules.retentionSilence));
    raise('retentionSilence', rules.retentionSilence, retentionRuns);

    // ── dead letters and scheduled runs ──────────────────────────────────────────────────────
    const deadLetters: [string, sqs.IQueue][] = [
      ...watched.queues.map(({ name, deadLetters }): [string, sqs.IQueue] => [name, deadLetters]),
      ['schedules', watched.scheduleDeadLetters],
    ];
    for (const [name, dlq] of deadLetters) {
      raise('deadLetters', rules.deadLetters, dlq.metricApproximateNumberOfMessagesVisible(windowOf(rules.deadLetters)), name);
    }
    for (const { spec } of watched.functions.filter((f) => scheduleTriggers(f.spec).length > 0)) {
      raise(
        'scheduledRunFailures',
        rules.scheduledRunFailures,
        new cloudwatch.Metric({
          namespace: 'AWS/Lambda',
          metricName: 'Errors',
          dimensionsMap: { FunctionName: functionName(config, spec.id) },
          ...windowOf(rules.scheduledRunFailures),
        }),
        spec.id,
      );
    }

    // ── health canary ────────────────────────────────────────────────────────────────────────
    const artifacts = new s3.Bucket(this, 'CanaryArtifacts', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [{ expiration: Duration.days(31) }],
      removalPolicy: config.removalPolicy,
    });
    Validations.of(artifacts).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        "Holds only the health canary's run reports (a public endpoint's status, no user data), written by the canary's own role and expired after 31 days.",
    });
    this.canary = new synthetics.Canary(this, 'HealthCanary', {
      canaryName: `${prefix}-health`,
      runtime: synthetics.Runtime.SYNTHETICS_NODEJS_PUPPETEER_13_0,
      test: synthetics.Test.custom({ code: synthetics.Code.fromAsset(CANARY_CODE), handler: 'health.handler' }),
      schedule: synthetics.Schedule.rate(Duration.minutes(config.canaryMinutes)),
      timeout: Duration.seconds(60),
      environmentVariables: { HEALTH_URL: `${api.apiEndpoint}${HEALTH_PATH}` },
      artifactsBucketLocation: { bucket: artifacts },
      successRetentionPeriod: Duration.days(7),
      failureRetentionPeriod: Duration.days(31),
      provisionedResourceCleanup: true,
    });
    acknowledgeMatching(
      this.canary,
      /^AwsSolutions-IAM5\[Resource::\*\]$/,
      'The canary role (CDK default): s3:ListAllMyBuckets has no resource-level scoping, and cloudwatch:PutMetricData is conditioned to the CloudWatchSynthetics namespace.',
    );
    acknowledgeMatching(
      this.canary,
      /^AwsSolutions-IAM5\[Resource::<CanaryArtifacts[0-9A-F]+\.Arn>\/\*\]$/,
      "Run reports get per-run keys in the canary's own artifacts bucket; the grant is PutObject there only.",
    );
    acknowledgeMatching(
      this.canary,
      /^AwsSolutions-IAM5\[Resource::arn:.*:log-group:\/aws\/lambda\/cwsyn-\*\]$/,
      'Synthetics names the canary function (and so its log group) cwsyn-<name>-<id> only at creation; the grant is limited to that prefix.',
    );
    // one period a run: two periods below 100 % are two failed runs in a row
    raise('healthCanary', rules.healthCanary, this.canary.metricSuccessPercent(windowOf(rules.healthCanary)));

    // ── dashboard ────────────────────────────────────────────────────────────────────────────
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${prefix}-operations`,
      defaultInterval: Duration.hours(6),
    });
    const graph = (title: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
      new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...extra });
    const line = (value: number, label: string): cloudwatch.HorizontalAnnotation => ({ value, label, color: cloudwatch.Color.RED });
    const query = (title: string, logGroups: logs.ILogGroup[], lines: string[], width = 12) =>
      new cloudwatch.LogQueryWidget({ title, logGroupNames: logGroups.map((g) => g.logGroupName), queryLines: lines, width, height: 6 });
    const logGroupOf = (id: string) => watched.functions.find((f) => f.spec.id === id)!.logGroup;
    const fiveMinutes = { period: Duration.minutes(5) };
    const sum5 = { statistic: 'Sum', ...fiveMinutes };
    const serviceAlarms = this.alarms.filter((a) => !computeAlarms.includes(a));

    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# ${prefix} operations\nAlarms, what they mean and what to do: **docs/runbook.md**. Per-route tables read the API access logs.`,
        width: 24,
        height: 2,
      }),
      new cloudwatch.AlarmStatusWidget({
        title: 'Service alarms',
        alarms: serviceAlarms,
        width: 12,
        height: 6,
        sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
      }),
      new cloudwatch.AlarmStatusWidget({
        title: 'Function compute alarms (Lambda Insights)',
        alarms: computeAlarms,
        width: 12,
        height: 6,
        sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
      }),
    );
    // API: traffic, latency and errors, overall and per route
    this.dashboard.addWidgets(
      graph('API requests and errors', [api.metricCount(sum5), api.metricClientError(sum5), api.metricServerError(sum5)]),
      graph(
        'API latency (ms)',
        ['p50', 'p90', 'p99'].map((statistic) => api.metricLatency({ statistic, ...fiveMinutes, label: `latency ${statistic}` })),
      ),
      graph('API 5xx rate (%)', [errorRate], { leftAnnotations: [line(rules.api5xxRate.threshold, 'alarm')] }),
    );
    this.dashboard.addWidgets(
      query(
        'Per route: traffic and latency (ms)',
        [watched.accessLogs],
        [
          'stats count(*) as requests, avg(latencyMs) as avg_ms, pct(latencyMs, 95) as p95_ms, max(latencyMs) as max_ms by routeKey',
          'sort requests desc',
        ],
      ),
      query(
        'Per route: errors by status',
        [watched.accessLogs],
        ['filter status like /^[45]\\d\\d$/', 'stats count(*) as responses by routeKey, status', 'sort responses desc'],
      ),
    );
    // queues
    const queueEntries = watched.queues.map(({ name, queue }) => [name, queue] as const);
    this.dashboard.addWidgets(
      graph(
        'Queue depth',
        queueEntries.flatMap(([name, queue]) => [
          queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', ...fiveMinutes, label: `${name} waiting` }),
          queue.metricApproximateNumberOfMessagesNotVisible({ statistic: 'Maximum', ...fiveMinutes, label: `${name} in flight` }),
        ]),
      ),
      graph(
        'Age of oldest message (s)',
        queueEntries.map(([name, queue]) =>
          queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', ...fiveMinutes, label: name }),
        ),
      ),
      graph(
        'Dead-letter queues',
        deadLetters.map(([name, dlq]) =>
          dlq.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', ...fiveMinutes, label: `${name} DLQ` }),
        ),
      ),
    );
    // AI: the service's own markers per region, and Bedrock's view of the calls per region (by the id each
    // region is called with: the fallback may use another geography's inference profile)
    const models = [...new Set(Object.values(config.ai.models))];
    this.dashboard.addWidgets(
      graph(
        'AI throttles, timeouts, fallbacks and sheds per region',
        [
          ...perRegion('aiThrottles', sum5),
          ...perRegion('aiTimeouts', sum5),
          ...perRegion('aiFallbacks', sum5),
          ...perRegion('aiSheds', sum5),
        ],
        { leftAnnotations: [line(rules.aiThrottles.threshold, 'throttle alarm')] },
      ),
      graph("AI work waiting for its organization's quota share", [serviceMetric('aiQuotaWaits', sum5)]),
      graph(
        'AI calls per region (Bedrock invocations)',
        regions.flatMap((region) =>
          models.map(
            (model) =>
              new cloudwatch.Metric({
                namespace: 'AWS/Bedrock',
                metricName: 'Invocations',
                dimensionsMap: { ModelId: modelIdForRegion(model, region) },
                region,
                ...sum5,
                label: `${region} ${model}`,
              }),
          ),
        ),
      ),
      graph(
        'Bedrock throttles per region',
        regions.flatMap((region) =>
          models.map(
            (model) =>
              new cloudwatch.Metric({
                namespace: 'AWS/Bedrock',
                metricName: 'InvocationThrottles',
                dimensionsMap: { ModelId: modelIdForRegion(model, region) },
                region,
                ...sum5,
                label: `${region} ${model}`,
              }),
          ),
        ),
      ),
    );
    // quality outcomes
    this.dashboard.addWidgets(
      query(
        'Quality checks: outcomes',
        [logGroupOf('quality-worker')],
        ['filter ispresent(outcome)', 'stats count(*) as analyses by outcome', 'sort analyses desc'],
        8,
      ),
      query(
        'Quality checks: confidence of verified analyses',
        [logGroupOf('quality-worker')],
        ['filter ispresent(confidence)', 'stats count(*) as analyses by confidence', 'sort analyses desc'],
        8,
      ),
      graph('Quality check and audit failures, rate-limit refusals', [
        serviceMetric('qualityCheckFailures', sum5),
        serviceMetric('auditFailures', sum5),
        serviceMetric('rateLimitRefusals', sum5),
      ]),
    );
    // database
    this.dashboard.addWidgets(
      graph('Database CPU (%)', [dbCpu.metric], { leftAnnotations: [line(rules.databaseCpu.threshold, 'alarm')] }),
      graph('Database connections', [databaseMetric('DatabaseConnections', { statistic: 'Maximum', ...fiveMinutes })], {
        leftAnnotations: [
          line(maxConnections, 'max_connections'),
          { ...line((maxConnections * rules.databaseConnections.threshold) / 100, 'alarm'), color: cloudwatch.Color.ORANGE },
        ],
      }),
      graph('Database free storage (bytes)', [dbStorage.metric], {
        leftAnnotations: [line(rules.databaseFreeStorage.threshold * (rules.databaseFreeStorage.scale ?? 1), 'alarm')],
      }),
    );
    // sweeps
    this.dashboard.addWidgets(
      graph('Sweeps: pending over 24 h, retention runs', [pending, retentionRuns], { width: 8 }),
      query(
        'Embedding sweeps (newest first)',
        [logGroupOf('embedding-sweeper')],
        [
          'filter ispresent(report.pendingOver24hAfterSweep)',
          'fields @timestamp, trigger, report.embedded, report.failed, report.remaining, report.pendingOver24hAfterSweep, report.stopped_by',
          'sort @timestamp desc',
          'limit 20',
        ],
        8,
      ),
      query(
        'Retention sweeps (newest first)',
        [logGroupOf('retention-sweep')],
        [
          `filter message = "${RETENTION_LOG_MARKER}"`,
          'fields @timestamp, trigger, report.deleted_total, report.complete, report.duration_ms',
          'sort @timestamp desc',
          'limit 20',
        ],
        8,
      ),
    );
    // compute and the canary (a point a run)
    const canaryRun = { period: Duration.seconds(rules.healthCanary.periodSeconds) };
    this.dashboard.addWidgets(
      graph('Function memory (% of configured, max)', computeMetrics.computeMemory, { legendPosition: cloudwatch.LegendPosition.RIGHT }),
      graph('Function CPU (% of allocated vCPU)', computeMetrics.computeCpu, { legendPosition: cloudwatch.LegendPosition.RIGHT }),
      graph('Health canary', [this.canary.metricSuccessPercent(canaryRun)], {
        right: [this.canary.metricDuration(canaryRun)],
        leftAnnotations: [line(rules.healthCanary.threshold, 'alarm below')],
      }),
    );
  }
}
