/**
 * S3 → EventBridge → SQS as the twin renders the synthesized deployment (lib/twin/aws/s3-events.ts): the plan reads
 * the files bucket's EventBridge flag, the rules and their queues' policies; an Object Created event under org/
 * goes to the ingestion queue, under imports/ to the imports queue, anywhere else nowhere; a queue whose policy
 * does not let EventBridge send for the rule gets nothing; a bucket without EventBridge sends no event.
 */
import { ensureAssembly, readAssembly } from '../../lib/twin/assembly/assembly';
import { planFromAssembly, type TwinPlan } from '../../lib/twin/assembly/plan';
import { deliveriesOf, objectCreatedBy, objectCreatedEvent, objectEvents, type ObjectCreated } from '../../lib/twin/aws/s3-events';
import type { AwsHttpRequest } from '../../lib/twin/iam/requests';
import { E2E_CONTEXT } from '../support/render';

let plan: TwinPlan;
let files: string;
beforeAll(async () => {
  plan = planFromAssembly(readAssembly(await ensureAssembly(E2E_CONTEXT)));
  files = plan.functions.find((f) => f.environment.FILES_BUCKET)!.environment.FILES_BUCKET!;
});

const created = (key: string, bucket = files): ObjectCreated => ({
  bucket,
  key,
  size: 5,
  etag: 'b1946ac92492d2347c6235b4d2611184',
  requestId: '0123456789ABCDEF',
  requester: '000000000000',
  sourceIp: '127.0.0.1',
});
const at = {
  account: '000000000000',
  region: 'us-east-1',
  id: '17793124-05d4-b198-2fde-7ededc63b103',
  time: new Date('2026-11-27T10:00:00.123Z'),
  sequencer: '0000019AC2F3E1B8',
};
const queueName = (arn: string) => plan.queues.find((q) => q.arn === arn)!.logicalId;

test('the plan: the files bucket sends its events to EventBridge, with the CORS rule for the SPA; two rules target the file queues', () => {
  const bucket = plan.buckets.find((b) => b.name === files)!;
  expect(bucket.eventBridge).toBe(true);
  expect(bucket.cors).toEqual([
    {
      allowedOrigins: ['http://localhost:5173'],
      allowedMethods: ['PUT', 'GET', 'HEAD'],
      allowedHeaders: ['content-type'],
      exposedHeaders: ['ETag'],
      maxAgeSeconds: 3600,
    },
  ]);
  expect(plan.buckets.filter((b) => b.eventBridge).map((b) => b.name)).toEqual([files]); // not the access log bucket
  expect(
    plan.rules
      .map((r) => r.targets.map((t) => queueName(t.queueArn)))
      .flat()
      .sort(),
  ).toEqual([expect.stringMatching(/^importsqueue/), expect.stringMatching(/^ingestionqueue/)]);
  for (const rule of plan.rules) expect(rule.arn).toBe(`arn:aws:events:us-east-1:000000000000:rule/${rule.name}`);
});

test('the event has the shape EventBridge hands an SQS target', () => {
  expect(objectCreatedEvent(created('org/a b/ü.pdf'), at)).toEqual({
    version: '0',
    id: at.id,
    'detail-type': 'Object Created',
    source: 'aws.s3',
    account: '000000000000',
    time: '2026-11-27T10:00:00Z',
    region: 'us-east-1',
    resources: [`arn:aws:s3:::${files}`],
    detail: {
      version: '0',
      bucket: { name: files },
      object: { key: 'org/a b/ü.pdf', size: 5, etag: 'b1946ac92492d2347c6235b4d2611184', sequencer: at.sequencer },
      'request-id': '0123456789ABCDEF',
      requester: '000000000000',
      'source-ip-address': '127.0.0.1',
      reason: 'PutObject',
    },
  });
});

test.each([
  ['org/1/inv/2/attachments/3/invoice.pdf', [/^ingestionqueue/]],
  ['imports/4.ndjson', [/^importsqueue/]],
  ['seeds/5.json', []],
  ['organisation/6', []],
])('%s goes to %p', (key, queues) => {
  const deliveries = deliveriesOf(objectCreatedEvent(created(key), at), plan);
  expect(deliveries.map((d) => [d.queue.logicalId, d.refused])).toEqual(queues.map((q) => [expect.stringMatching(q), undefined]));
});

test('an event of another bucket matches no rule (the pattern names the files bucket)', () => {
  expect(deliveriesOf(objectCreatedEvent(created('org/x', 'another-bucket'), at), plan)).toEqual([]);
});

test('a queue whose policy lets EventBridge send for another rule only is refused', () => {
  const [first, second] = plan.rules;
  const swapped = {
    ...plan,
    rules: [
      { ...first!, arn: second!.arn },
      { ...second!, arn: first!.arn },
    ],
  };
  const deliveries = deliveriesOf(objectCreatedEvent(created('org/x'), at), swapped);
  const imports = deliveriesOf(objectCreatedEvent(created('imports/x'), at), swapped);
  expect([...deliveries, ...imports].map((d) => d.refused)).toEqual(['no-allow', 'no-allow']);
});

describe('objectEvents', () => {
  const run = async (bucketsWithEvents: boolean, key: string) => {
    const sent: { queueUrl: string; body: string }[] = [];
    const lines: string[] = [];
    const notify = objectEvents({
      plan: { ...plan, buckets: plan.buckets.map((b) => ({ ...b, eventBridge: bucketsWithEvents && b.eventBridge })) },
      send: async (queueUrl, body) => {
        sent.push({ queueUrl, body });
      },
      log: (line) => lines.push(line),
      now: () => at.time,
    });
    await notify(created(key));
    await notify(created(key));
    return { sent, lines };
  };

  test("sends the event's JSON to each allowed queue, with a growing sequencer", async () => {
    const { sent } = await run(true, 'org/x');
    const ingestion = plan.queues.find((q) => q.logicalId.startsWith('ingestionqueue'))!;
    expect(sent.map((s) => s.queueUrl)).toEqual([ingestion.url, ingestion.url]);
    const [first, second] = sent.map((s) => JSON.parse(s.body));
    expect(first.detail.object.key).toBe('org/x');
    expect(first.id).not.toBe(second.id);
    expect(first.detail.object.sequencer < second.detail.object.sequencer).toBe(true);
  });

  test('a bucket that does not send its events to EventBridge sends none', async () => {
    expect((await run(false, 'org/x')).sent).toEqual([]);
  });
});

describe('objectCreatedBy: the PutObject calls S3 answers with an Object Created event', () => {
  const request = (method: string, path: string, headers: Record<string, string> = {}): AwsHttpRequest => ({
    service: 's3',
    method,
    host: `${files}.s3.us-east-1.amazonaws.com`,
    path,
    headers,
    body: Buffer.from('hello'),
    region: 'us-east-1',
    account: '000000000000',
  });
  const put = () => [{ action: 's3:PutObject', resource: `arn:aws:s3:::${files}/org/a/b.txt` }];
  const ok = { status: 200, headers: { etag: '"5d41402abc4b2a76b9719d911017c592"', 'x-amz-request-id': 'ABC' } };

  test('a PutObject answered 200', () => {
    expect(objectCreatedBy(request('PUT', '/org/a/b.txt'), put(), ok, '127.0.0.1')).toEqual({
      bucket: files,
      key: 'org/a/b.txt',
      size: 5,
      etag: '5d41402abc4b2a76b9719d911017c592',
      requestId: 'ABC',
      requester: '000000000000',
      sourceIp: '127.0.0.1',
    });
    // an aws-chunked upload: the decoded length
    expect(objectCreatedBy(request('PUT', '/org/a/b.txt', { 'x-amz-decoded-content-length': '3' }), put(), ok, '::1')?.size).toBe(3);
  });

  test('not a refused or failed put, a copy, an upload part, another method', () => {
    expect(objectCreatedBy(request('PUT', '/org/a/b.txt'), put(), { ...ok, status: 403 }, '127.0.0.1')).toBeUndefined();
    expect(
      objectCreatedBy(
        request('PUT', '/org/a/b.txt'),
        [...put(), { action: 's3:GetObject', resource: 'arn:aws:s3:::x/y' }],
        ok,
        '127.0.0.1',
      ),
    ).toBeUndefined();
    expect(objectCreatedBy(request('PUT', '/org/a/b.txt?partNumber=1&uploadId=u'), put(), ok, '127.0.0.1')).toBeUndefined();
    expect(objectCreatedBy(request('GET', '/org/a/b.txt'), [{ ...put()[0]!, action: 's3:GetObject' }], ok, '127.0.0.1')).toBeUndefined();
  });
});
