/**
 * The Tracer wiring: under a real X-Ray segment, an AWS SDK call made with a client from the client cache
 * and statements through the database the connection module opens each become a subsegment — the SDK
 * one in namespace aws with its operation, the database ones with their kind and table and no SQL text.
 */
import { sql } from 'kysely';
import type { Segment as SegmentType, Subsegment } from 'aws-xray-sdk-core';

// the Tracer switches itself on only in a Lambda environment, read when it is made (on import); the SDK
// signs before it sends, so the call needs credentials (any) to reach the wire
Object.assign(process.env, {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
});

type Modules = {
  tracer: typeof import('#core/tracer');
  logger: typeof import('#core/logger');
  clients: typeof import('#core/aws/clients');
  connection: typeof import('#core/db/connection');
  tracing: typeof import('#core/db/tracing');
  xray: typeof import('aws-xray-sdk-core');
  sqs: typeof import('@aws-sdk/client-sqs');
};
let m: Modules;
let handle: Awaited<ReturnType<Modules['connection']['openDatabase']>>;

beforeAll(async () => {
  m = {
    tracer: await import('#core/tracer'),
    logger: await import('#core/logger'),
    clients: await import('#core/aws/clients'),
    connection: await import('#core/db/connection'),
    tracing: await import('#core/db/tracing'),
    xray: await import('aws-xray-sdk-core'),
    sqs: await import('@aws-sdk/client-sqs'),
  };
  handle = await m.connection.openDatabase({ engine: 'pglite', dataDir: 'memory://' });
}, 60_000);

afterAll(async () => {
  await handle.close();
  for (const name of ['AWS_EXECUTION_ENV', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) delete process.env[name];
});

/** Runs `work` with a fresh segment as the current one (X-Ray keeps it in an async context); returns the segment. */
const underSegment = async (work: () => Promise<void>): Promise<SegmentType> => {
  const segment = new m.xray.Segment('tracing-test');
  await m.xray.getNamespace().runPromise(async () => {
    m.tracer.tracer.setSegment(segment);
    await work();
  });
  return segment;
};

const subsegmentsOf = (segment: SegmentType) => (segment.subsegments ?? []) as (Subsegment & Record<string, unknown>)[];

test('the tracer is on in a Lambda environment', () => {
  expect(m.tracer.tracer.isTracingEnabled()).toBe(true);
});

test('an AWS SDK call from a cached client is a subsegment in namespace aws, with its operation (a failed call too)', async () => {
  const segment = await underSegment(async () => {
    // nothing listens on port 1: the call fails, as a throttled or unreachable one would, and is still traced
    const queueUrl = 'http://127.0.0.1:1/000000000000/probe';
    await expect(m.clients.sqsClient().send(new m.sqs.GetQueueAttributesCommand({ QueueUrl: queueUrl }))).rejects.toThrow(/ECONNREFUSED/);
  });
  const aws = subsegmentsOf(segment).filter((s) => s.namespace === 'aws');
  expect(aws).toHaveLength(1);
  expect(aws[0]).toMatchObject({ name: 'SQS', aws: expect.objectContaining({ operation: 'GetQueueAttributes' }) });
  expect(aws[0]!.in_progress).toBeFalsy();
}, 30_000);

test('each database statement is a subsegment with its kind and table, a failed one with its SQLSTATE, never its SQL or values', async () => {
  const secret = 'evidence text that must stay out of traces';
  const segment = await underSegment(async () => {
    await sql`select ${secret}::text as value`.execute(handle.db);
    const missing = handle.db.withTables<{ probe: { id: number; note: string } }>();
    await expect(missing.selectFrom('probe').select('id').where('note', '=', secret).execute()).rejects.toThrow(/probe/);
  });
  const statements = subsegmentsOf(segment).filter((s) => s.name === m.tracing.DATABASE_SUBSEGMENT);
  expect(statements.map((s) => s.annotations)).toEqual([
    { db_operation: 'select' },
    { db_operation: 'select', db_table: 'probe', db_error: '42P01' },
  ]);
  for (const s of statements) expect(s).toMatchObject({ namespace: 'remote', sql: { database_type: 'PostgreSQL' } });
  expect(statements[1]!.fault).toBe(true);
  expect(statements.every((s) => !s.in_progress)).toBe(true);
  expect(JSON.stringify(segment)).not.toContain(secret);
});

test('a handler wrapped by withLambdaContext runs in a subsegment of its own, its statements beneath it', async () => {
  process.env._HANDLER = 'index.handler';
  const handler = m.logger.withLambdaContext(async () => {
    await sql`select 1`.execute(handle.db);
    return 'done';
  });
  let after: unknown;
  const segment = await underSegment(async () => {
    await expect(handler({}, { functionName: 'probe', awsRequestId: 'r-1' } as never)).resolves.toBe('done');
    after = m.tracer.tracer.getSegment();
  });
  const [wrapper, ...others] = subsegmentsOf(segment);
  expect(others).toEqual([]);
  expect(wrapper).toMatchObject({ name: '## index.handler', annotations: expect.objectContaining({ Service: 'investigation-analysis' }) });
  expect((wrapper!.subsegments ?? []).map((s) => s.name)).toEqual([m.tracing.DATABASE_SUBSEGMENT]);
  // the wrapper gives the invocation's segment back when it ends
  expect(after).toBe(segment);
  delete process.env._HANDLER;
});
