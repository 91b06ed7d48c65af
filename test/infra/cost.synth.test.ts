/**
 * The cost estimate (lib/cost/estimate.ts) over the stages as synthesized (test/support/synth.ts): what each stage
 * bills at rest, line by line, and docs/cost.md being what `npm run cost` writes from these templates and the prices.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANALYSIS_USAGE, costAtRest, costDocument, costPerAnalysis, total } from '../../lib/cost/estimate';
import { HOURS_A_MONTH, PRICES, PRICES_AS_OF } from '../../lib/cost/prices';
import { PROJECT_ROOT } from '../../lib/paths';
import { synthesized } from '../support/synth';

const dev = synthesized('dev').templates;
const prod = synthesized('prod').templates;
const line = (lines: ReturnType<typeof costAtRest>, item: RegExp) => lines.find((l) => item.test(l.item));

test('at rest: a NAT instance in dev and a NAT gateway a zone in prod, no interface endpoints in dev and three in both zones in prod, the database and its proxy', () => {
  const [d, p] = [costAtRest(dev), costAtRest(prod)];
  expect(line(d, /^NAT gateways/)).toBeUndefined();
  expect(line(d, /^NAT instances/)).toMatchObject({ item: 'NAT instances, t4g.nano', count: 1, dollars: 3.07 });
  expect(line(d, /^their public IPv4/)).toMatchObject({ count: 1, dollars: 3.65 });
  expect(line(p, /^NAT gateways/)).toMatchObject({ count: 2, dollars: 65.7 });
  expect(line(p, /^NAT instances/)).toBeUndefined();
  // dev reaches those services over its NAT (endpointZones), prod has them in both zones
  expect(line(d, /^interface VPC endpoints/)).toBeUndefined();
  expect(line(p, /^interface VPC endpoints/)).toMatchObject({ count: 6, dollars: 43.8 });
  expect(line(d, /^PostgreSQL/)).toMatchObject({ item: 'PostgreSQL db.t4g.micro', dollars: Math.round(0.016 * HOURS_A_MONTH * 100) / 100 });
  expect(line(p, /^PostgreSQL/)?.item).toBe('PostgreSQL db.m7g.large, Multi-AZ');
  expect(line(d, /^RDS Proxy/)).toMatchObject({ count: 1, dollars: 21.9 });
  // each alarm pays for every metric it reads: more metrics than alarms, as the metric-math alarms read several
  const alarms = line(d, /^CloudWatch alarms/)!;
  expect(alarms.count).toBeGreaterThan(Number(/\((\d+),/.exec(alarms.item)![1]));
  expect(alarms.dollars).toBeCloseTo(alarms.count * PRICES.alarmMetricMonth, 5);
  expect(line(d, /^Synthetics canary runs/)).toMatchObject({ count: 1_460 }); // every 30 minutes
  expect(line(p, /^Synthetics canary runs/)).toMatchObject({ count: 8_760 }); // every 5 minutes
  expect(total(p)).toBeGreaterThan(total(d));
});

test("per analysis: the stage's own models, read from its functions' environment", () => {
  const lines = costPerAnalysis(dev);
  expect(lines.map((l) => l.item)).toEqual([
    'generation, us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    'quality checks, us.anthropic.claude-haiku-4-5-20251001-v1:0',
    'query embedding, cohere.embed-english-v3',
    'Lambda: the workers and the requests',
    'HTTP API requests',
  ]);
  // Sonnet 4.5 at $3 and $15 a million tokens
  expect(lines[0]!.dollars).toBeCloseTo((ANALYSIS_USAGE.generation.input * 3 + ANALYSIS_USAGE.generation.output * 15) / 1e6, 8);
});

test('docs/cost.md is what `npm run cost` writes from these templates and lib/cost/prices.ts', () => {
  const written = readFileSync(join(PROJECT_ROOT, 'docs', 'cost.md'), 'utf8');
  expect(written).toBe(costDocument({ dev, prod }, PRICES_AS_OF));
});
