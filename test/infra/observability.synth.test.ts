/**
 * CDK assertions over the alarms, dashboard and canary of the app bin/app.ts deploys (buildApp), with
 * bundling skipped and ONE synthesis (of test/support/synth.ts's stage alarmOverrides). The spec's
 * thresholds are written out here, not read from lib/alarms.ts, so a change of the table that breaks the
 * spec fails this file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import {
  ALARM_RULE_IDS,
  assertLegalWindow,
  defaultMaxConnections,
  FUNCTION_COMPUTE_THRESHOLDS,
  parseAlarmOverrides,
  resolveAlarms,
} from '../../lib/alarms';
import { functions, type QueueName } from '#manifest';
import { buildApp, type ServiceApp } from '../../lib/stacks';
import { stageConfig } from '../../lib/stage-config';
import { newApp as newCdkApp } from '../support/cdk-app';
import { sharedRef, STAGES, synthesized } from '../support/synth';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const root = join(__dirname, '../..');
// CloudFormation validation of the stage runs once per run in test/support/synth-stages.ts (asserted below)
const newApp = (context: Json = {}) => newCdkApp(context, { cloudFormationValidation: false });

interface MetricRef {
  namespace: string;
  metricName: string;
  dimensions: Record<string, unknown>;
  stat: string;
  period: number;
}

/** The metrics an alarm reads, whether it is a plain metric alarm or a Metrics (math) alarm. */
const metricsOf = (alarm: Json): MetricRef[] => {
  const dims = (list: Json[] = []) => Object.fromEntries(list.map((d) => [d.Name as string, d.Value as unknown]));
  if (alarm.MetricName) {
    return [
      {
        namespace: alarm.Namespace,
        metricName: alarm.MetricName,
        dimensions: dims(alarm.Dimensions),
        stat: alarm.Statistic,
        period: alarm.Period,
      },
    ];
  }
  return (alarm.Metrics as Json[])
    .filter((m) => m.MetricStat)
    .map(({ MetricStat: s }) => ({
      namespace: s.Metric.Namespace,
      metricName: s.Metric.MetricName,
      dimensions: dims(s.Metric.Dimensions),
      stat: s.Stat,
      period: s.Period,
    }));
};
const expressionOf = (alarm: Json): string | undefined => (alarm.Metrics as Json[] | undefined)?.find((m) => m.Expression)?.Expression;

const GREATER = 'GreaterThanThreshold';
const LESS = 'LessThanThreshold';

describe('observability of the dev app', () => {
  let service: ServiceApp;
  let template: Template;
  let alarms: Map<string, Json>;
  let assemblyDir: string;

  beforeAll(() => {
    const app = newApp(STAGES.alarmOverrides);
    service = buildApp(app);
    assemblyDir = app.synth().directory; // runs cdk-nag
    template = Template.fromStack(service.observability);
    alarms = new Map(
      Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((r) => [r.Properties.AlarmName as string, r.Properties as Json]),
    );
  });

  const alarm = (name: string): Json => {
    const found = alarms.get(`ias-dev-${name}`);
    if (!found) throw new Error(`no alarm ias-dev-${name}`);
    return found;
  };
  /** the alarm's window and comparison, as the spec states them */
  const expectWindow = (
    a: Json,
    { periods, comparison, threshold, missing }: { periods: number; comparison: string; threshold: number; missing: string },
  ) => {
    expect(a).toMatchObject({
      EvaluationPeriods: periods,
      DatapointsToAlarm: periods,
      ComparisonOperator: comparison,
      Threshold: threshold,
      TreatMissingData: missing,
    });
  };
  /** the dimension every metric of the service's own carries: the stage's Powertools service name */
  const serviceDimension = { service: 'investigation-analysis-dev' };

  test('AI throttling above 10 in 5 minutes: the AiThrottles metric (EMF) per region, summed', () => {
    const a = alarm('aiThrottles');
    expectWindow(a, { periods: 1, comparison: GREATER, threshold: 10, missing: 'notBreaching' });
    const metrics = metricsOf(a);
    expect(metrics.map((m) => m.dimensions)).toEqual(
      expect.arrayContaining([
        { ...serviceDimension, Region: 'us-east-1' },
        { ...serviceDimension, Region: 'us-west-2' },
      ]),
    );
    expect(metrics).toHaveLength(2);
    for (const m of metrics)
      expect(m).toMatchObject({ namespace: 'InvestigationAnalysis', metricName: 'AiThrottles', stat: 'Sum', period: 300 });
    expect(expressionOf(a)).toBe('FILL(r0, 0) + FILL(r1, 0)');
  });

  test('the alarms read metrics, not log text: no metric filter is left', () => {
    expect(template.findResources('AWS::Logs::MetricFilter')).toEqual({});
  });

  test('database: CPU above 80 % for 5 minutes, free storage below 5 GiB, connections above 80 % of max_connections', () => {
    const instance = (m: MetricRef) =>
      expect(m).toMatchObject({ namespace: 'AWS/RDS', dimensions: { DBInstanceIdentifier: expect.anything() } });
    const cpu = alarm('databaseCpu');
    expectWindow(cpu, { periods: 5, comparison: GREATER, threshold: 80, missing: 'missing' });
    expect(metricsOf(cpu)).toEqual([expect.objectContaining({ metricName: 'CPUUtilization', stat: 'Average', period: 60 })]);
    instance(metricsOf(cpu)[0]!);
    const storage = alarm('databaseFreeStorage');
    expectWindow(storage, { periods: 1, comparison: LESS, threshold: 5 * 1024 ** 3, missing: 'missing' });
    expect(metricsOf(storage)).toEqual([expect.objectContaining({ metricName: 'FreeStorageSpace', stat: 'Minimum', period: 300 })]);
    const connections = alarm('databaseConnections');
    expectWindow(connections, { periods: 1, comparison: GREATER, threshold: 80, missing: 'missing' });
    expect(metricsOf(connections)).toEqual([expect.objectContaining({ metricName: 'DatabaseConnections', stat: 'Maximum', period: 300 })]);
    instance(metricsOf(connections)[0]!);
    // dev runs db.t4g.micro: 1 GiB / 9531392 bytes per connection
    expect(expressionOf(connections)).toBe('100 * connections / 112');
  });

  test('compute: per function, Lambda Insights CPU over its vCPU share above 75 % and memory above 80 %, for 10 minutes', () => {
    // dev alarms on the functions sized for heavy work; prod on every function (below)
    const heavy = functions.filter((spec) => spec.memoryMb >= 1024);
    expect(heavy.map((spec) => spec.id).sort()).toEqual([
      'background-extract-text',
      'embedding-sweeper',
      'embedding-worker',
      'generation-worker',
      'import-investigations',
      'import-worker',
      'ingestion-worker',
      'quality-worker',
    ]);
    expect([...alarms.keys()].filter((name) => /-compute(Cpu|Memory)-/.test(name)).sort()).toEqual(
      heavy.flatMap((spec) => [`ias-dev-computeCpu-${spec.id}`, `ias-dev-computeMemory-${spec.id}`]).sort(),
    );
    for (const spec of heavy) {
      const name = `ias-dev-${spec.id}`;
      const cpu = alarm(`computeCpu-${spec.id}`);
      expectWindow(cpu, {
        periods: 2,
        comparison: GREATER,
        threshold: FUNCTION_COMPUTE_THRESHOLDS[spec.id]?.computeCpu ?? 75,
        missing: 'notBreaching',
      });
      const [time, duration] = metricsOf(cpu);
      expect(time).toEqual({
        namespace: 'LambdaInsights',
        metricName: 'cpu_total_time',
        dimensions: { function_name: name },
        stat: 'Sum',
        period: 300,
      });
      expect(duration).toEqual({
        namespace: 'AWS/Lambda',
        metricName: 'Duration',
        dimensions: { FunctionName: name },
        stat: 'Sum',
        period: 300,
      });
      const [, i, vcpus] = /^100 \* cpu(\d+) \/ \(duration\1 \* ([\d.]+)\)$/.exec(expressionOf(cpu)!)!;
      expect(i).toBeDefined();
      expect(Number(vcpus)).toBeCloseTo(spec.memoryMb / 1769, 3);

      const memory = alarm(`computeMemory-${spec.id}`);
      expectWindow(memory, {
        periods: 2,
        comparison: GREATER,
        threshold: spec.id === 'generation-worker' ? 90 : 80,
        missing: 'notBreaching',
      });
      expect(metricsOf(memory)).toEqual([
        {
          namespace: 'LambdaInsights',
          metricName: 'memory_utilization',
          dimensions: { function_name: name },
          stat: 'Maximum',
          period: 300,
        },
      ]);
    }
    // the code's own per-function default applies where the context sets nothing
    expect(alarm('computeCpu-background-extract-text').Threshold).toBe(95);
  });

  test("prod alarms on every function's compute; both stages' dashboards graph every function", () => {
    const prod = synthesized('prod').templates.observability as Json;
    const names = Object.values(prod.Resources as Record<string, Json>)
      .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
      .map((r) => r.Properties.AlarmName as string);
    for (const rule of ['computeCpu', 'computeMemory'])
      expect(names.filter((name) => name.startsWith(`ias-prod-${rule}-`)).sort()).toEqual(
        functions.map((spec) => `ias-prod-${rule}-${spec.id}`).sort(),
      );
    const dashboards = [template.toJSON(), prod].map((t) =>
      JSON.stringify(Object.values(t.Resources as Record<string, Json>).find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties),
    );
    for (const body of dashboards) for (const spec of functions) expect(body).toContain(`${spec.id} memory %`);
  });

  test('API 5xx rate above 5 % for 5 minutes: 5xx over Count of the HTTP API', () => {
    const a = alarm('api5xxRate');
    expectWindow(a, { periods: 1, comparison: GREATER, threshold: 5, missing: 'notBreaching' });
    expect(expressionOf(a)).toBe('100 * FILL(errors, 0) / requests');
    const metrics = metricsOf(a);
    expect(metrics.map((m) => m.metricName).sort()).toEqual(['5xx', 'Count']);
    for (const m of metrics)
      expect(m).toMatchObject({ namespace: 'AWS/ApiGateway', stat: 'Sum', period: 300, dimensions: { ApiId: expect.anything() } });
    expect(metrics[0]!.dimensions.ApiId).toEqual(sharedRef(template.toJSON(), '/ias-dev/shared/api/id')); // the API stack shares it
  });

  test('embedding pending over 24 hours: the sweeper metric above 0', () => {
    const a = alarm('embeddingPending');
    expectWindow(a, { periods: 1, comparison: GREATER, threshold: 0, missing: 'notBreaching' });
    expect(metricsOf(a)).toEqual([
      {
        namespace: 'InvestigationAnalysis',
        metricName: 'PendingOver24hAfterSweep',
        dimensions: { service: 'investigation-analysis-dev' },
        stat: 'Maximum',
        period: 3600,
      },
    ]);
    // the dimension is what the sweeper publishes under: its Powertools service name, per stage
    const sweeper = Object.values(Template.fromStack(service.api).findResources('AWS::Lambda::Function')).find(
      (r) => r.Properties.Environment.Variables.FUNCTION_ID === 'embedding-sweeper',
    )!;
    expect(sweeper.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe('investigation-analysis-dev');
  });

  test('RetentionCronLastRun absent for 26 hours: 26 hourly periods without a run, missing data breaching', () => {
    const a = alarm('retentionSilence');
    expectWindow(a, { periods: 26, comparison: LESS, threshold: 1, missing: 'breaching' });
    expect(metricsOf(a)).toEqual([
      { namespace: 'InvestigationAnalysis', metricName: 'RetentionCronLastRun', dimensions: serviceDimension, stat: 'Sum', period: 3600 },
    ]);
    // legal: periods of an hour or more may span up to 7 days
    expect(26 * 3600).toBeGreaterThan(86_400);
    expect(26 * 3600).toBeLessThanOrEqual(604_800);
  });

  test('every queue has a DLQ, and every DLQ (the schedules one too) an alarm above 0 messages', () => {
    const workers = Template.fromStack(service.workers);
    const sqsQueues = workers.findResources('AWS::SQS::Queue');
    // the alarm names the queue by the name its stack fixes (lib/stacks/names.ts)
    const dlqAlarmed = (name: string, queues: Record<string, Json>, logicalId: string) => {
      const a = alarm(`deadLetters-${name}`);
      expectWindow(a, { periods: 1, comparison: GREATER, threshold: 0, missing: 'notBreaching' });
      const [m] = metricsOf(a);
      expect(m).toMatchObject({ namespace: 'AWS/SQS', metricName: 'ApproximateNumberOfMessagesVisible', stat: 'Maximum', period: 300 });
      expect(m!.dimensions.QueueName).toBe(queues[logicalId]!.Properties.QueueName);
    };
    for (const name of Object.keys(service.workers.queues) as QueueName[]) {
      const queueId = service.workers.getLogicalId(service.workers.queues[name].node.defaultChild as never);
      const redrive = sqsQueues[queueId]!.Properties.RedrivePolicy as Json;
      expect(redrive).toBeDefined();
      dlqAlarmed(name, sqsQueues, redrive.deadLetterTargetArn['Fn::GetAtt'][0] as string);
    }
    dlqAlarmed(
      'schedules',
      Template.fromStack(service.schedules).findResources('AWS::SQS::Queue'),
      service.schedules.getLogicalId(service.schedules.deadLetters.node.defaultChild as never),
    );
  });

  test('audit failures, quality check failures, AI fallbacks and sheds are alarmed on their metrics (EMF)', () => {
    const metricOf = {
      auditFailures: 'AuditFailures',
      qualityCheckFailures: 'QualityCheckFailures',
      aiSheds: 'AiSheds',
      aiFallbacks: 'AiFallbacks',
    };
    for (const [name, threshold, period] of [
      ['auditFailures', 0, 300],
      ['qualityCheckFailures', 0, 300],
      ['aiSheds', 0, 300],
      ['aiFallbacks', 7, 900],
    ] as const) {
      const a = alarm(name);
      expectWindow(a, { periods: 1, comparison: GREATER, threshold, missing: 'notBreaching' });
      for (const m of metricsOf(a)) {
        expect(m).toMatchObject({
          namespace: 'InvestigationAnalysis',
          metricName: metricOf[name],
          stat: 'Sum',
          period,
          dimensions: expect.objectContaining(serviceDimension),
        });
      }
    }
  });

  test('each scheduled function has a run-failure alarm on its Lambda errors', () => {
    const scheduled = functions.filter((f) => f.triggers.some((t) => t.kind === 'schedule'));
    expect(scheduled.length).toBeGreaterThan(0);
    for (const spec of scheduled) {
      const a = alarm(`scheduledRunFailures-${spec.id}`);
      expectWindow(a, { periods: 1, comparison: GREATER, threshold: 0, missing: 'notBreaching' });
      expect(metricsOf(a)).toEqual([
        { namespace: 'AWS/Lambda', metricName: 'Errors', dimensions: { FunctionName: `ias-dev-${spec.id}` }, stat: 'Sum', period: 300 },
      ]);
    }
  });

  test("the canary reads GET /api/health every 30 minutes in dev (prod's every 5) and has its own alarm, a period a run", () => {
    template.hasResourceProperties('AWS::Synthetics::Canary', {
      Name: 'ias-dev-health',
      Schedule: { Expression: 'rate(30 minutes)' },
      Code: { Handler: 'health.handler' },
      RuntimeVersion: 'syn-nodejs-puppeteer-13.0',
    });
    const canary = Object.values(template.findResources('AWS::Synthetics::Canary'))[0]!.Properties as Json;
    const url = canary.RunConfig.EnvironmentVariables.HEALTH_URL as Json;
    expect(url['Fn::Join'][1][1]).toBe('/api/health');
    expect(url['Fn::Join'][1][0]).toEqual(sharedRef(template.toJSON(), '/ias-dev/shared/api/endpoint'));
    const a = alarm('healthCanary');
    expectWindow(a, { periods: 2, comparison: LESS, threshold: 100, missing: 'breaching' });
    expect(metricsOf(a)).toEqual([
      expect.objectContaining({ namespace: 'CloudWatchSynthetics', metricName: 'SuccessPercent', stat: 'Average', period: 1800 }),
    ]);
    const prod = Template.fromJSON(synthesized('prod').templates.observability);
    prod.hasResourceProperties('AWS::Synthetics::Canary', { Schedule: { Expression: 'rate(5 minutes)' } });
    prod.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'ias-prod-healthCanary',
      MetricName: 'SuccessPercent',
      Period: 300,
      EvaluationPeriods: 2,
    });
  });

  test('every alarm notifies the one SNS topic (alarm and recovery), within CloudWatch window limits', () => {
    const topics = Object.keys(template.findResources('AWS::SNS::Topic'));
    expect(topics).toHaveLength(1);
    expect(alarms.size).toBeGreaterThan(ALARM_RULE_IDS.length);
    for (const [name, a] of alarms) {
      expect({ name, actions: a.AlarmActions, ok: a.OKActions }).toEqual({ name, actions: [{ Ref: topics[0] }], ok: [{ Ref: topics[0] }] });
      expect(a.AlarmDescription).toMatch(/Runbook: docs\/runbook\.md#[a-z0-9]+$/);
      for (const { period } of metricsOf(a)) {
        expect(period === 10 || period === 30 || period % 60 === 0).toBe(true);
        expect(period * a.EvaluationPeriods).toBeLessThanOrEqual(period < 3600 ? 86_400 : 604_800);
      }
    }
    // the addresses of context alarmEmails are subscribed, each once
    const subscribed = Object.values(template.findResources('AWS::SNS::Subscription')).map((r) => r.Properties as Json);
    expect(subscribed).toEqual(
      ['oncall@example.com', 'ops@example.com'].map((Endpoint) => ({ Protocol: 'email', Endpoint, TopicArn: { Ref: topics[0] } })),
    );
    // every rule of the table is rendered, and the runbook has a section for each
    const runbook = readFileSync(join(root, 'docs/runbook.md'), 'utf8');
    for (const id of ALARM_RULE_IDS) {
      expect([...alarms.keys()].some((n) => n === `ias-dev-${id}` || n.startsWith(`ias-dev-${id}-`))).toBe(true);
      expect(runbook).toContain(`\n### ${id}\n`);
    }
  });

  test('the dashboard shows API per route, queues, AI per region, quality, database and sweeps', () => {
    const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]!.Properties.DashboardName).toBe('ias-dev-operations');
    const body = JSON.stringify(dashboards[0]!.Properties.DashboardBody);
    for (const piece of [
      'by routeKey', // per-route traffic, latency and errors from the access logs
      '\\"AWS/ApiGateway\\",\\"Latency\\"',
      'ApproximateAgeOfOldestMessage',
      'ApproximateNumberOfMessagesNotVisible',
      '\\"AiThrottles\\",\\"Region\\",\\"us-east-1\\",\\"service\\",\\"investigation-analysis-dev\\"',
      '\\"Region\\",\\"us-west-2\\"',
      '\\"AiFallbacks\\"',
      '\\"AiSheds\\"',
      '\\"RateLimitRefusals\\"',
      '\\"AiQuotaWaits\\"',
      '\\"AWS/Bedrock\\",\\"Invocations\\"',
      '\\"region\\":\\"us-west-2\\"',
      'stats count(*) as analyses by outcome',
      'CPUUtilization',
      'DatabaseConnections',
      'FreeStorageSpace',
      'PendingOver24hAfterSweep',
      'RetentionCronLastRun',
      'report.pendingOver24hAfterSweep',
      'memory_utilization',
      'SuccessPercent',
    ])
      expect(body).toContain(piece);
  });

  test('cdk-nag: no unacknowledged finding, and the runbook lists every kind the stacks acknowledge; CloudFormation validation passes', () => {
    const report = JSON.parse(readFileSync(join(assemblyDir, 'validation-report.json'), 'utf8')) as { pluginReports: Json[] };
    expect(report.pluginReports.flatMap((r) => r.violations ?? [])).toEqual([]);
    expect(synthesized('alarmOverrides').validationViolations).toEqual([]); // the same stage's synth with CloudFormation validation on
    const stacks = join(root, 'lib/stacks');
    const acknowledged = new Set(
      readdirSync(stacks).flatMap((f) => [...readFileSync(join(stacks, f), 'utf8').matchAll(/AwsSolutions-[A-Z]+\d+/g)].map((m) => m[0])),
    );
    expect(acknowledged.size).toBeGreaterThan(5);
    const section = readFileSync(join(root, 'docs/runbook.md'), 'utf8').split('## cdk-nag')[1]!;
    for (const id of acknowledged) expect(section).toMatch(new RegExp(`\\| [^|]*\\b${id}\\b`));
  });
});

describe('the alarm table', () => {
  test('max_connections follows RDS for PostgreSQL: LEAST(memory / 9531392, 5000)', () => {
    expect(defaultMaxConnections('t4g.micro')).toBe(112);
    expect(defaultMaxConnections('m7g.large')).toBe(901);
    expect(defaultMaxConnections('r7g.2xlarge')).toBe(5000);
    expect(() => defaultMaxConnections('x2g.large')).toThrow(/databaseMaxConnections/);
    // an override replaces the derived value and works for any class
    expect(resolveAlarms({ databaseMaxConnections: 81 }, 'x2g.large').maxConnections).toBe(81);
  });

  test('overrides change a rule or one function, and nothing else', () => {
    const plain = resolveAlarms({}, 'm7g.large');
    const tuned = resolveAlarms(
      { rules: { databaseCpu: { threshold: 90 } }, functions: { 'quality-worker': { computeCpu: 60 } } },
      'm7g.large',
    );
    expect(tuned.rules.databaseCpu.threshold).toBe(90);
    expect({ ...tuned.rules, databaseCpu: plain.rules.databaseCpu }).toEqual(plain.rules);
    expect(tuned.computeRule('quality-worker', 'computeCpu').threshold).toBe(60);
    expect(tuned.computeRule('generation-worker', 'computeCpu').threshold).toBe(75);
    expect(tuned.computeRule('quality-worker', 'computeMemory').threshold).toBe(80);
  });

  test('the per-function defaults name real functions', () => {
    for (const id of Object.keys(FUNCTION_COMPUTE_THRESHOLDS)) expect(functions.some((f) => f.id === id)).toBe(true);
  });

  test('a window CloudWatch would refuse fails the synth', () => {
    expect(() => assertLegalWindow('x', { periodSeconds: 3600, evaluationPeriods: 26 })).not.toThrow();
    expect(() => assertLegalWindow('x', { periodSeconds: 300, evaluationPeriods: 289 })).toThrow(/1-day/);
    expect(() => assertLegalWindow('x', { periodSeconds: 3600, evaluationPeriods: 169 })).toThrow(/7-day/);
    expect(() => assertLegalWindow('x', { periodSeconds: 45, evaluationPeriods: 1 })).toThrow(/multiple of 60/);
    expect(() => resolveAlarms({ rules: { databaseCpu: { evaluationPeriods: 1441 } } }, 't4g.micro')).toThrow(/databaseCpu/);
  });

  test('context alarmThresholds: JSON text or object; unknown rules, functions and keys fail', () => {
    const node = (value: unknown) => newApp({ alarmThresholds: value }).node;
    expect(stageConfig(newApp().node).alarms).toEqual({});
    expect(stageConfig(node('{"rules":{"api5xxRate":{"threshold":2}}}')).alarms).toEqual({ rules: { api5xxRate: { threshold: 2 } } });
    expect(stageConfig(node({ databaseMaxConnections: 81 })).alarms).toEqual({ databaseMaxConnections: 81 });
    expect(() => stageConfig(node('{"rules":{"cpu":{"threshold":2}}}'))).toThrow(/alarmThresholds/);
    expect(() => stageConfig(node({ functions: { 'no-such-function': { computeCpu: 50 } } }))).toThrow(/alarmThresholds/);
    expect(() => stageConfig(node({ functions: { health: { computeMemory: 150 } } }))).toThrow(/alarmThresholds/);
    expect(() => stageConfig(node({ databaseCpu: 90 }))).toThrow(/alarmThresholds/);
    expect(() => stageConfig(node('databaseCpu=90'))).toThrow(/JSON object/);
    expect(parseAlarmOverrides(undefined)).toEqual({});
  });

  test('context alarmEmails: a comma-separated list of addresses, none by default; a malformed one fails', () => {
    expect(stageConfig(newApp().node).alarmEmails).toEqual([]);
    expect(stageConfig(newApp({ alarmEmails: ' a@example.com,,b@example.org ' }).node).alarmEmails).toEqual([
      'a@example.com',
      'b@example.org',
    ]);
    expect(() => stageConfig(newApp({ alarmEmails: 'a@example.com, oncall' }).node)).toThrow(/alarmEmails .*not one: oncall$/);
  });

  test('the gateway and shedder write each AI marker and count its metric beside it', () => {
    const source = ['gateway.ts', 'shedder.ts'].map((f) => readFileSync(join(root, 'layers/core/ai', f), 'utf8')).join('\n');
    for (const [marker, metric] of [
      ['[AI:Throttle]', 'aiThrottles'],
      ['[AI:fallback]', 'aiFallbacks'],
      ['[AI:Shed]', 'aiSheds'],
    ] as const) {
      // the marker's log call (one statement, however it is wrapped), then the count
      expect(source).toMatch(new RegExp(`logger\\.warn\\('${marker.replace(/[[\]]/g, '\\$&')}'[^;]*;\\s*countEvent\\('${metric}'`));
    }
  });
});

describe('the health canary script', () => {
  const mockExecuteHttpStep = jest.fn();
  jest.mock('Synthetics', () => ({ executeHttpStep: mockExecuteHttpStep, getCanaryUserAgentString: () => 'CloudWatchSynthetics/test' }), {
    virtual: true,
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const canary = require('../../lib/canary/health.js') as { verify: (status: number, body: string) => void; handler: () => Promise<void> };

  test('passes only a 200 with status ok, and names the failing components otherwise', () => {
    expect(() => canary.verify(200, JSON.stringify({ status: 'ok', checks: {} }))).not.toThrow();
    expect(() =>
      canary.verify(
        503,
        JSON.stringify({
          status: 'unavailable',
          checks: { database: { status: 'failed', error: 'connect ECONNREFUSED' }, queues: { status: 'ok' } },
        }),
      ),
    ).toThrow('health answered 503 (unavailable); failing: database: connect ECONNREFUSED');
    expect(() => canary.verify(200, JSON.stringify({ status: 'unavailable' }))).toThrow(/answered 200/);
    expect(() => canary.verify(502, 'Bad Gateway')).toThrow(/without a JSON report: Bad Gateway/);
  });

  test('requests HEALTH_URL with one HTTP step', async () => {
    process.env.HEALTH_URL = 'https://abc123.execute-api.us-east-1.amazonaws.com/api/health';
    await canary.handler();
    expect(mockExecuteHttpStep).toHaveBeenCalledWith(
      'GET /api/health',
      expect.objectContaining({
        hostname: 'abc123.execute-api.us-east-1.amazonaws.com',
        path: '/api/health',
        method: 'GET',
        protocol: 'https:',
      }),
      expect.any(Function),
    );
    delete process.env.HEALTH_URL;
  });
});
