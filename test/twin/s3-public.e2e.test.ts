/**
 * Files coming in as the service hands them in, through a running twin: an upload URL presigned by a function's
 * role with layers/core/ingestion/presign.ts (length and type bound in the signature) is followed with a plain
 * fetch at the twin's public S3 endpoint, where the twin's gateway maps such URLs; S3 refuses what it would
 * refuse (another type or length, an expired URL, a tampered signature, a key outside the signer's grant),
 * behind the bucket's CORS configuration; the same URL through the AWS edge behaves the same. An object put
 * under org/ lands S3's EventBridge event on the ingestion queue, one under imports/ on the imports queue —
 * and none when the rule's queue policy no longer lets EventBridge send.
 *
 * The queue workers are taken out of these twins' deployments (their event source mappings), so the test
 * reads each queue itself, as the worker would be handed it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { QueueName } from '#manifest';
import type { TwinPlan } from '../../lib/twin/assembly/plan';
import type { ObjectCreatedEvent } from '../../lib/twin/aws/s3-events';
import { edgeRequest } from '../../lib/twin/aws/edge-client';
import type { Twin } from '../../lib/twin/twin';
import { s3Presigner, type UploadRequest } from '#core/ingestion/presign';
import { setEnv } from '../support/config-env';
import { useTwin } from '../support/twin';

const ORIGIN = 'http://localhost:5173'; // the twin's default SPA origin: the API's and the bucket's CORS allow it

/** The deployment with the workers' event source mappings of the two queues files arrive on left out. */
const withoutFileWorkers = (plan: TwinPlan): TwinPlan => {
  const fileQueues = plan.rules.flatMap((rule) => rule.targets.map((t) => t.queueArn));
  return { ...plan, eventSources: plan.eventSources.filter((m) => !fileQueues.includes(m.queueArn)) };
};

/**
 * Signs as a function would: its role session's credentials in the environment, the service's own presigner. The
 * service's S3 client is made once a process and keeps the credentials it first read: one signer per test file.
 */
const signingAs = (twin: Twin, functionId: string) => {
  const { accessKeyId, secretAccessKey, sessionToken } = twin.functionCredentials(functionId);
  setEnv({
    AWS_REGION: twin.plan.region,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
    AWS_ENDPOINT_URL_S3: undefined,
  });
  return (request: UploadRequest, now?: Date) => s3Presigner(twin.aws.bucket, now && (() => now))(request);
};

const mappedUrl = (twin: Twin, awsUrl: string): string => {
  const url = new URL(awsUrl);
  expect(url.host).toBe(`${twin.aws.bucket}.s3.${twin.plan.region}.amazonaws.com`);
  return `${twin.aws.publicS3}/${twin.aws.bucket}${url.pathname}${url.search}`;
};

const put = (url: string, body: string | Buffer, headers: Record<string, string>) => fetch(url, { method: 'PUT', headers, body });

const s3ErrorCode = async (res: Response): Promise<string | undefined> => /<Code>([^<]+)<\/Code>/.exec(await res.text())?.[1];

const sqsOf = (twin: Twin) =>
  new SQSClient({ region: twin.plan.region, endpoint: twin.aws.endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });

/** The events read off each twin's queues so far (read once: a received message stays hidden for the rest of the file). */
const seen = new WeakMap<Twin, Partial<Record<QueueName, ObjectCreatedEvent[]>>>();

/**
 * Every event on a queue, with those read before. S3's event is on the queue by the time the PUT is answered (the twin
 * delivers it first; AWS within moments), so the queue is read without waiting.
 */
const eventsOn = async (twin: Twin, queue: QueueName) => {
  const read = seen.get(twin) ?? {};
  seen.set(twin, read);
  const events = (read[queue] ??= []);
  const sqs = sqsOf(twin);
  try {
    for (;;) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: twin.aws.queues[queue].url, MaxNumberOfMessages: 10, VisibilityTimeout: 900 }),
      );
      if (Messages.length === 0) return events;
      events.push(...Messages.map((m: Message) => JSON.parse(m.Body!) as ObjectCreatedEvent));
    }
  } finally {
    sqs.destroy();
  }
};

const eventFor = async (twin: Twin, queue: QueueName, key: string) =>
  (await eventsOn(twin, queue)).find((e) => e.detail.object.key === key);

/** Whether the bucket holds the key (an operator's HeadObject through the edge). */
const stored = async (e2e: ReturnType<typeof useTwin>, key: string): Promise<boolean> => {
  const s3 = new S3Client(e2e.awsConfig());
  try {
    await s3.send(new HeadObjectCommand({ Bucket: e2e.twin.aws.bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  } finally {
    s3.destroy();
  }
};

/** Puts an object as an operator does, through the AWS edge (an operator's key passes IAM as an administrator's). */
const operatorPut = async (e2e: ReturnType<typeof useTwin>, key: string, body: string, contentType: string) => {
  const s3 = new S3Client({ ...e2e.awsConfig(), requestChecksumCalculation: 'WHEN_REQUIRED' });
  try {
    return await s3.send(new PutObjectCommand({ Bucket: e2e.twin.aws.bucket, Key: key, Body: body, ContentType: contentType }));
  } finally {
    s3.destroy();
  }
};

describe('with the deployment as synthesized (but the file workers)', () => {
  const e2e = useTwin({ schedules: false, seed: false, transformPlan: withoutFileWorkers });
  const orgKey = () => `org/${randomUUID()}/inv/${randomUUID()}/attachments/${randomUUID()}/Invoice BIS-1041 (final).pdf`;
  const pdf = Buffer.from('%PDF-1.7 eleven bytes and more');
  const upload = (key: string, overrides: Partial<UploadRequest> = {}, now?: Date) =>
    signingAs(e2e.twin, 'evidence-create')(
      { key, contentType: 'application/pdf', sizeBytes: pdf.length, expiresInSeconds: 900, ...overrides },
      now,
    );

  test('the presigned upload URL, followed at the public endpoint, stores the file with its type; S3 emits Object Created to the ingestion queue', async () => {
    const { twin } = e2e;
    const key = orgKey();
    const { url, headers } = await upload(key);
    const res = await put(mappedUrl(twin, url), pdf, { ...headers, origin: ORIGIN });
    expect(res.status).toBe(200);
    const etag = createHash('md5').update(pdf).digest('hex');
    expect(res.headers.get('etag')).toBe(`"${etag}"`);
    // the bucket's CORS: the app's origin may read the answer and its ETag
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag');

    const s3 = new S3Client(e2e.awsConfig());
    try {
      const object = await s3.send(new GetObjectCommand({ Bucket: twin.aws.bucket, Key: key }));
      expect(object.ContentType).toBe('application/pdf');
      expect(Buffer.from(await object.Body!.transformToByteArray()).equals(pdf)).toBe(true);
    } finally {
      s3.destroy();
    }

    const event = await eventFor(twin, 'ingestion', key);
    expect(event).toEqual({
      version: '0',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      'detail-type': 'Object Created',
      source: 'aws.s3',
      account: twin.plan.account,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      region: twin.plan.region,
      resources: [`arn:aws:s3:::${twin.aws.bucket}`],
      detail: {
        version: '0',
        bucket: { name: twin.aws.bucket },
        object: { key, size: pdf.length, etag, sequencer: expect.stringMatching(/^[0-9A-F]{16,}$/) },
        'request-id': expect.any(String),
        requester: twin.plan.account,
        'source-ip-address': '127.0.0.1',
        reason: 'PutObject',
      },
    });
    // the signer's permission, decided and recorded as every edge call
    expect(twin.awsCalls()).toContainEqual(
      expect.objectContaining({
        functionId: 'evidence-create',
        action: 's3:PutObject',
        resource: `arn:aws:s3:::${twin.aws.bucket}/${key}`,
        allowed: true,
      }),
    );
  });

  test.each([
    ['another Content-Type', { 'content-type': 'text/html' }, pdf, 403, 'SignatureDoesNotMatch'],
    ['another length', {}, Buffer.concat([pdf, Buffer.from('!')]), 403, 'SignatureDoesNotMatch'],
  ])('an upload with %s is refused, and nothing is stored or announced', async (_, changed, body, status, code) => {
    const { twin } = e2e;
    const key = orgKey();
    const { url, headers } = await upload(key);
    const res = await put(mappedUrl(twin, url), body, { ...headers, ...changed });
    expect([res.status, await s3ErrorCode(res)]).toEqual([status, code]);
    expect(await stored(e2e, key)).toBe(false);
    expect(await eventFor(twin, 'ingestion', key)).toBeUndefined();
  });

  test('an expired URL is refused with "Request has expired"', async () => {
    const { twin } = e2e;
    const key = orgKey();
    const { url, headers } = await upload(key, { expiresInSeconds: 60 }, new Date(Date.now() - 120_000));
    const res = await put(mappedUrl(twin, url), pdf, headers);
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).toContain('<Code>AccessDenied</Code><Message>Request has expired</Message><X-Amz-Expires>60</X-Amz-Expires>');
    expect(await stored(e2e, key)).toBe(false);
  });

  test('a tampered signature is refused', async () => {
    const { twin } = e2e;
    const { url, headers } = await upload(orgKey());
    const tampered = url.replace(
      /X-Amz-Signature=([0-9a-f]{63})([0-9a-f])/,
      (_, head: string, last: string) => `X-Amz-Signature=${head}${last === '0' ? '1' : '0'}`,
    );
    expect(tampered).not.toBe(url);
    const res = await put(mappedUrl(twin, tampered), pdf, headers);
    expect([res.status, await s3ErrorCode(res)]).toEqual([403, 'SignatureDoesNotMatch']);
  });

  test("a key outside the signer's grant is refused by IAM (evidence-create may write under org/ only)", async () => {
    const { twin } = e2e;
    const key = `imports/${randomUUID()}.ndjson`;
    const { url, headers } = await upload(key, { contentType: 'application/x-ndjson' });
    const res = await put(mappedUrl(twin, url), pdf, headers);
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).toContain('<Code>AccessDenied</Code>');
    expect(text).toContain(`is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::${twin.aws.bucket}/${key}"`);
    expect(twin.awsCalls()).toContainEqual(
      expect.objectContaining({ functionId: 'evidence-create', action: 's3:PutObject', allowed: false }),
    );
    expect(await eventFor(twin, 'imports', key)).toBeUndefined();
  });

  test('the same URL through the AWS edge (as a function or an operator tool sends it) is checked the same way', async () => {
    const { twin } = e2e;
    const key = orgKey();
    const { url, headers } = await upload(key);
    const wrong = await edgeRequest(twin.aws.edge, url, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: pdf,
    });
    expect([wrong.status, /<Code>([^<]+)/.exec(wrong.body.toString())?.[1]]).toEqual([403, 'SignatureDoesNotMatch']);
    const right = await edgeRequest(twin.aws.edge, url, { method: 'PUT', headers, body: pdf });
    expect(right.status).toBe(200);
    expect((await eventFor(twin, 'ingestion', key))?.detail.object).toMatchObject({ key, size: pdf.length });
  });

  test('an object an operator puts under imports/ through the edge lands on the imports queue, not the ingestion queue', async () => {
    const { twin } = e2e;
    const key = `imports/${randomUUID()}.ndjson`;
    await operatorPut(e2e, key, '{"kind":"evidence"}\n', 'application/x-ndjson');
    expect((await eventFor(twin, 'imports', key))?.detail).toMatchObject({ bucket: { name: twin.aws.bucket }, object: { key, size: 20 } });
    expect(await eventFor(twin, 'ingestion', key)).toBeUndefined();
  });

  describe("the bucket's CORS, as S3 applies it", () => {
    const preflight = (origin: string, method = 'PUT', headers = 'content-type') =>
      fetch(`${e2e.twin.aws.publicS3}/${e2e.twin.aws.bucket}/org/x/file.pdf`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
      });

    test("a preflight from the app's origin for a PUT with a content type is allowed", async () => {
      const res = await preflight(ORIGIN);
      expect(res.status).toBe(200);
      expect(Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-')))).toEqual({
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-methods': 'PUT, GET, HEAD',
        'access-control-allow-headers': 'content-type',
        'access-control-expose-headers': 'ETag',
        'access-control-max-age': '3600',
        'access-control-allow-credentials': 'true',
      });
    });

    test.each([
      ['another origin', 'https://evil.example', 'PUT', 'content-type'],
      ['a method the rule does not allow', ORIGIN, 'DELETE', 'content-type'],
      ['a header the rule does not allow', ORIGIN, 'PUT', 'content-type,x-amz-acl'],
    ])('a preflight from %s is refused', async (_, origin, method, headers) => {
      const res = await preflight(origin, method, headers);
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(await res.text()).toContain('<Code>AccessForbidden</Code><Message>CORSResponse: This CORS request is not allowed.');
    });

    test('an answer to another origin carries no CORS headers (the browser keeps it from the page)', async () => {
      const { twin } = e2e;
      const { url, headers } = await upload(orgKey());
      const res = await put(mappedUrl(twin, url), pdf, { ...headers, origin: 'https://evil.example' });
      expect(res.status).toBe(200); // S3 serves it: CORS is the browser's to enforce
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  test('the public endpoint serves presigned requests of the twin’s buckets only', async () => {
    const { twin } = e2e;
    const anonymous = await fetch(`${twin.aws.publicS3}/${twin.aws.bucket}/org/x/file.pdf`);
    expect([anonymous.status, await s3ErrorCode(anonymous)]).toEqual([403, 'AccessDenied']);
    const unknown = await fetch(`${twin.aws.publicS3}/no-such-bucket/org/x/file.pdf?X-Amz-Signature=0`);
    expect([unknown.status, await s3ErrorCode(unknown)]).toEqual([404, 'NoSuchBucket']);
  });
});

describe('when the ingestion queue no longer lets EventBridge send (its policy statement for the rule removed)', () => {
  const withoutEventBridgeGrant = (plan: TwinPlan): TwinPlan => {
    const changed = withoutFileWorkers(plan);
    const ingestion = plan.rules.find((r) =>
      r.targets.some((t) => plan.queues.find((q) => q.arn === t.queueArn)?.logicalId.startsWith('ingestion')),
    )!;
    return {
      ...changed,
      queues: changed.queues.map((q) =>
        ingestion.targets.some((t) => t.queueArn === q.arn)
          ? {
              ...q,
              policy: q.policy.filter((s) => JSON.stringify(s.Principal ?? '') !== JSON.stringify({ Service: 'events.amazonaws.com' })),
            }
          : q,
      ),
    };
  };
  const lines: string[] = [];
  const e2e = useTwin({ schedules: false, seed: false, transformPlan: withoutEventBridgeGrant, log: (line) => lines.push(line) });

  test('an object put under org/ is stored, and EventBridge drops its event (logged); imports/ still get theirs', async () => {
    const { twin } = e2e;
    const key = `org/${randomUUID()}/inv/${randomUUID()}/attachments/${randomUUID()}/memo.txt`;
    expect((await operatorPut(e2e, key, 'memo', 'text/plain')).ETag).toBeDefined();
    expect(await eventsOn(twin, 'ingestion')).toEqual([]);
    expect(
      lines.some(
        (l) => l.startsWith('[eventbridge]') && l.includes(key) && l.includes('does not let events.amazonaws.com sqs:SendMessage'),
      ),
    ).toBe(true);
    const imported = `imports/${randomUUID()}.ndjson`;
    await operatorPut(e2e, imported, '{}\n', 'application/x-ndjson');
    expect(await eventFor(twin, 'imports', imported)).toBeDefined();
  });
});
