/**
 * What a stage costs, read from its synthesized templates (`npm run cost` renders docs/cost.md with it): at rest, each
 * resource that bills by the hour or the month whether or not anyone uses the service, priced by ./prices.ts; and
 * per analysis, the model calls and the workers' Lambda time of one verified analysis. Pure: templates in, lines out.
 * Usage that scales with traffic or data (NAT and endpoint data processing, logs, S3, SQS, requests) is left to the
 * per-analysis line or named as usage, not guessed.
 */
import { splitProfileId } from '#core/ai/models';
import { markdownTable } from '../markdown';
import { HOURS_A_MONTH, PRICES } from './prices';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type Templates = Record<string, Json>;

export interface CostLine {
  /** what is billed, with the count or size it is billed for */
  item: string;
  count: number;
  /** US dollars: a month, for a resource at rest; one analysis, for a line of its cost */
  dollars: number;
  /** how it was priced */
  basis: string;
}

const resources = (templates: Templates, type: string): Json[] =>
  Object.values(templates).flatMap((t) => Object.values((t.Resources ?? {}) as Record<string, Json>).filter((r) => r.Type === type));

const hourly = (perHour: number) => perHour * HOURS_A_MONTH;
const money = (n: number) => Math.round(n * 100) / 100;

/** A schedule expression's runs a month: `rate(N minutes|hours|days)`; a cron counts as daily (a canary uses rates). */
const runsAMonth = (expression: string): number => {
  const rate = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression);
  if (!rate) return 30;
  const minutes = Number(rate[1]) * { minute: 1, hour: 60, day: 1_440 }[rate[2] as 'minute' | 'hour' | 'day'];
  return (HOURS_A_MONTH * 60) / minutes;
};

export const costAtRest = (templates: Templates): CostLine[] => {
  const lines: CostLine[] = [];
  const add = (item: string, count: number, monthly: number, basis: string) => {
    if (count > 0) lines.push({ item, count, dollars: money(monthly), basis });
  };

  const nats = resources(templates, 'AWS::EC2::NatGateway').length;
  add('NAT gateways', nats, nats * hourly(PRICES.natGatewayHour), `$${PRICES.natGatewayHour} an hour each (data processed: usage)`);
  const ips = resources(templates, 'AWS::EC2::EIP').length;
  add("public IPv4 addresses (the NAT gateways')", ips, ips * hourly(PRICES.publicIpv4Hour), `$${PRICES.publicIpv4Hour} an hour each`);
  // a NAT instance forwards for others (no source/destination check), with a public address of its own
  const natInstances = resources(templates, 'AWS::EC2::Instance').filter((i) => i.Properties?.SourceDestCheck === false);
  for (const type of [...new Set(natInstances.map((i) => String(i.Properties.InstanceType)))]) {
    const count = natInstances.filter((i) => i.Properties.InstanceType === type).length;
    const perHour = PRICES.ec2InstanceHour[type];
    if (perHour === undefined) throw new Error(`lib/cost/prices.ts has no price for EC2 ${type}`);
    add(`NAT instances, ${type}`, count, count * hourly(perHour), `$${perHour} an hour each`);
    add(
      'their root volumes (GB, gp3)',
      count * PRICES.amazonLinuxRootGb,
      count * PRICES.amazonLinuxRootGb * PRICES.ebsGp3GbMonth,
      `$${PRICES.ebsGp3GbMonth} a GB-month, Amazon Linux 2023's ${PRICES.amazonLinuxRootGb} GB`,
    );
    add('their public IPv4 addresses', count, count * hourly(PRICES.publicIpv4Hour), `$${PRICES.publicIpv4Hour} an hour each`);
  }

  const interfaceAzs = resources(templates, 'AWS::EC2::VPCEndpoint')
    .filter((e) => e.Properties?.VpcEndpointType === 'Interface')
    .reduce((sum, e) => sum + ((e.Properties.SubnetIds as unknown[] | undefined)?.length ?? 1), 0);
  add(
    'interface VPC endpoints (endpoint × zone)',
    interfaceAzs,
    interfaceAzs * hourly(PRICES.interfaceEndpointAzHour),
    `$${PRICES.interfaceEndpointAzHour} an hour per zone (data processed: usage)`,
  );

  for (const db of resources(templates, 'AWS::RDS::DBInstance')) {
    const p = db.Properties as Json;
    const cls = String(p.DBInstanceClass);
    const perHour = PRICES.rdsInstanceHour[cls];
    if (perHour === undefined) throw new Error(`no price for the database instance class ${cls} in lib/cost/prices.ts`);
    const zones = p.MultiAZ === true ? 2 : 1;
    add(`PostgreSQL ${cls}${zones === 2 ? ', Multi-AZ' : ''}`, 1, zones * hourly(perHour), `$${perHour} an hour a zone`);
    const gb = Number(p.AllocatedStorage ?? 20);
    add(
      `its gp3 storage (GB${zones === 2 ? ', both zones' : ''})`,
      gb,
      zones * gb * PRICES.rdsGp3GbMonth,
      `$${PRICES.rdsGp3GbMonth} a GB-month`,
    );
    const proxies = resources(templates, 'AWS::RDS::DBProxy').length;
    const vcpus = Math.max(2, PRICES.rdsInstanceVcpus[cls] ?? 2);
    add(
      'RDS Proxy',
      proxies,
      proxies * vcpus * hourly(PRICES.rdsProxyVcpuHour),
      `$${PRICES.rdsProxyVcpuHour} per vCPU-hour of ${vcpus} vCPUs`,
    );
  }

  const alarms = resources(templates, 'AWS::CloudWatch::Alarm');
  const alarmMetrics = alarms.reduce(
    (sum, a) => sum + (Array.isArray(a.Properties?.Metrics) ? (a.Properties.Metrics as Json[]).filter((m) => m.MetricStat).length : 1),
    0,
  );
  add(
    `CloudWatch alarms (${alarms.length}, reading metrics)`,
    alarmMetrics,
    alarmMetrics * PRICES.alarmMetricMonth,
    `$${PRICES.alarmMetricMonth} a metric an alarm reads, a month`,
  );
  const dashboards = resources(templates, 'AWS::CloudWatch::Dashboard').length;
  add(
    'CloudWatch dashboards beyond the 3 free',
    Math.max(0, dashboards - 3),
    Math.max(0, dashboards - 3) * PRICES.dashboardMonth,
    '$3 a month',
  );

  const canaryRuns = resources(templates, 'AWS::Synthetics::Canary').reduce(
    (sum, c) => sum + runsAMonth(String(c.Properties?.Schedule?.Expression ?? 'rate(5 minutes)')),
    0,
  );
  add('Synthetics canary runs', Math.round(canaryRuns), canaryRuns * PRICES.canaryRun, `$${PRICES.canaryRun} a run`);

  const keys = resources(templates, 'AWS::KMS::Key').length;
  add('KMS keys', keys, keys * PRICES.kmsKeyMonth, `$${PRICES.kmsKeyMonth} a month`);
  const secrets = resources(templates, 'AWS::SecretsManager::Secret').length;
  add('Secrets Manager secrets', secrets, secrets * PRICES.secretMonth, `$${PRICES.secretMonth} a month`);
  return lines;
};

/**
 * Tokens and Lambda time of one verified analysis, as measured where a figure exists: the quality checks' input by
 * `npm run bench -- tokens` (8 passages, the most a prompt holds), the generation's from the same passages under
 * its own system prompt; outputs are the answers' usual length (an analysis's findings, two verdicts).
 */
export const ANALYSIS_USAGE = {
  queryEmbeddingTokens: 25,
  generation: { input: 1_900, output: 600, seconds: 30 },
  quality: { input: 3_391, output: 500, seconds: 16 },
  /** the investigator's requests around it (create, polls, reads), each about 100 ms of a 512 MB function */
  requests: 20,
} as const;

const modelPrice = (id: string) => {
  const model = splitProfileId(id)?.model ?? id;
  const entry = Object.entries(PRICES.bedrockMillionTokens).find(([prefix]) => model.startsWith(prefix));
  if (!entry) throw new Error(`no Bedrock price for ${id} in lib/cost/prices.ts`);
  return entry[1];
};

/** The stage's configured models, read from its functions' environment (AI_MODEL_*), and their memory. */
const stageFunctions = (templates: Templates) => {
  const functions = resources(templates, 'AWS::Lambda::Function').map((f) => f.Properties as Json);
  const withVariable = (name: string) => functions.find((f) => typeof f.Environment?.Variables?.[name] === 'string');
  const generation = withVariable('AI_MODEL_ANALYSIS');
  const quality = withVariable('AI_MODEL_QUALITY');
  if (!generation || !quality)
    throw new Error('the templates configure no analysis or quality model (AI_MODEL_ANALYSIS, AI_MODEL_QUALITY)');
  return {
    analysisModel: String(generation.Environment.Variables.AI_MODEL_ANALYSIS),
    embeddingModel: String(generation.Environment.Variables.AI_MODEL_EMBEDDING),
    qualityModel: String(quality.Environment.Variables.AI_MODEL_QUALITY),
    generationGb: Number(generation.MemorySize ?? 128) / 1024,
    qualityGb: Number(quality.MemorySize ?? 128) / 1024,
  };
};

export const costPerAnalysis = (templates: Templates): CostLine[] => {
  const stage = stageFunctions(templates);
  const u = ANALYSIS_USAGE;
  const tokens = (id: string, input: number, output: number) => {
    const price = modelPrice(id);
    return (input * price.input + output * price.output) / 1e6;
  };
  const lambda = (gb: number, seconds: number) => gb * seconds * PRICES.lambdaArmGbSecond + PRICES.lambdaMillionRequests / 1e6;
  const line = (item: string, dollars: number, basis: string): CostLine => ({ item, count: 1, dollars, basis });
  return [
    line(
      `generation, ${stage.analysisModel}`,
      tokens(stage.analysisModel, u.generation.input, u.generation.output),
      `${u.generation.input.toLocaleString('en')} tokens in, ${u.generation.output} out`,
    ),
    line(
      `quality checks, ${stage.qualityModel}`,
      tokens(stage.qualityModel, u.quality.input, u.quality.output),
      `${u.quality.input.toLocaleString('en')} tokens in, ${u.quality.output} out (two calls)`,
    ),
    line(
      `query embedding, ${stage.embeddingModel}`,
      tokens(stage.embeddingModel, u.queryEmbeddingTokens, 0),
      `${u.queryEmbeddingTokens} tokens`,
    ),
    line(
      'Lambda: the workers and the requests',
      lambda(stage.generationGb, u.generation.seconds) + lambda(stage.qualityGb, u.quality.seconds) + u.requests * lambda(0.5, 0.1),
      `generation ${u.generation.seconds} s at ${stage.generationGb * 1024} MB, checks ${u.quality.seconds} s at ${stage.qualityGb * 1024} MB, ${u.requests} requests`,
    ),
    line('HTTP API requests', (u.requests * PRICES.httpApiMillionRequests) / 1e6, `${u.requests} requests`),
  ];
};

export const total = (lines: readonly CostLine[]): number => lines.reduce((sum, l) => sum + l.dollars, 0);

/** cents a month at rest; an analysis costs fractions of a cent */
const dollars = (n: number, places: 2 | 4) => `$${n.toFixed(places)}`;

const table = (lines: readonly CostLine[], places: 2 | 4) =>
  markdownTable([
    ['item', 'count', 'dollars', 'priced at'],
    ...lines.map((l) => [l.item, l.count.toLocaleString('en'), dollars(l.dollars, places), l.basis]),
    ['**total**', '', `**${dollars(total(lines), places)}**`, ''],
  ]);

/** docs/cost.md for the stages' templates (by stage name), as `npm run cost` writes it. */
export const costDocument = (stages: Record<string, Templates>, pricesAsOf: string): string =>
  [
    '# What it costs',
    '',
    `Written by \`npm run cost\` from each stage's synthesized templates and the us-east-1 list prices of`,
    `\`lib/cost/prices.ts\` (as of ${pricesAsOf}); \`npm run cost -- --check\` says whether this file is current. Do not edit`,
    'it by hand: change the prices file or the stacks, then run the command.',
    '',
    'At rest is what a stage bills a month with nobody using it: resources paid by the hour or the month. Not',
    'counted there, because they follow use: data through the NATs and endpoints, Lambda, API, SQS and S3',
    'requests, logs and metrics written, Cognito users beyond the free tier, X-Ray traces, CloudFront transfer, and',
    "the scheduled functions' own runs (cents). Per analysis is one verified analysis: its model calls at the",
    "stage's configured models and the workers' Lambda time (`ANALYSIS_USAGE` in `lib/cost/estimate.ts` says where",
    'each figure comes from).',
    '',
    ...Object.entries(stages).flatMap(([name, templates]) => [
      `## ${name}`,
      '',
      `### At rest: ${dollars(total(costAtRest(templates)), 2)} a month`,
      '',
      ...table(costAtRest(templates), 2),
      '',
      `### Per verified analysis: ${dollars(total(costPerAnalysis(templates)), 4)}`,
      '',
      ...table(costPerAnalysis(templates), 4),
      '',
    ]),
  ].join('\n');
