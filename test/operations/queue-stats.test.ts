/**
 * Queue statistics and job status: the DLQ found from the RedrivePolicy (pure), per-queue errors when
 * SQS is not configured, refuses, or hangs (the other queue is still read), and the jobs status against
 * the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): newest run and newest success per
 * sweep, analyses in flight with the oldest age.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { sql } from 'kysely';
import { EMBEDDING_SWEEPER_JOB } from '#core/embeddings/job';
import { jobsStatusSchema } from '#core/operations/contract';
import { analysesInFlight, jobsStatus } from '#core/operations/jobs-status';
import { dlqUrlOf, queueDepths, queueStats, queueStatsSchema } from '#core/operations/queue-stats';
import { RETENTION_JOB } from '#core/operations/retention';
import { queues } from '#manifest';
import { useTestDatabase } from '../support/db';
import { addWaitingChunks } from '../support/fixtures';

const GEN_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/ias-prod-generation';
const QUAL_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/ias-prod-quality';
const redrive = (name: string) => JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:eu-west-1:123456789012:${name}`, maxReceiveCount: 3 });

describe('dlqUrlOf', () => {
  test("the DLQ is named by the RedrivePolicy, in the queue's account and region", () => {
    expect(dlqUrlOf(GEN_URL, redrive('ias-prod-generation-dlq'))).toBe(
      'https://sqs.eu-west-1.amazonaws.com/123456789012/ias-prod-generation-dlq',
    );
    expect(dlqUrlOf('http://127.0.0.1:4566/000000000000/ias-quality', redrive('ias-quality-dlq'))).toBe(
      'http://127.0.0.1:4566/000000000000/ias-quality-dlq',
    );
  });

  test.each([
    undefined,
    '',
    'not json',
    '{}',
    JSON.stringify({ deadLetterTargetArn: 42 }),
    JSON.stringify({ deadLetterTargetArn: 'no-colons' }),
  ])('no usable RedrivePolicy (%j) → no DLQ', (policy) => {
    expect(dlqUrlOf(GEN_URL, policy)).toBeUndefined();
  });
});

/** An SQS stand-in answering GetQueueAttributes from a table keyed by queue URL (an Error entry is thrown). */
const fakeSqs = (answers: Record<string, Record<string, string> | Error>) => {
  const asked: { url: string; names: string[] }[] = [];
  const client = {
    send: async (command: GetQueueAttributesCommand) => {
      const url = command.input.QueueUrl!;
      asked.push({ url, names: command.input.AttributeNames ?? [] });
      const answer = answers[url];
      if (answer instanceof Error) throw answer;
      if (!answer) throw Object.assign(new Error('The specified queue does not exist.'), { name: 'QueueDoesNotExist' });
      return { Attributes: answer };
    },
  } as unknown as SQSClient;
  return { client, asked };
};

const counts = (visible: number, inFlight: number, delayed: number, policy?: string) => ({
  ApproximateNumberOfMessages: String(visible),
  ApproximateNumberOfMessagesNotVisible: String(inFlight),
  ApproximateNumberOfMessagesDelayed: String(delayed),
  ...(policy && { RedrivePolicy: policy }),
});

describe('queueDepths', () => {
  test('visible, in flight, delayed and the DLQ depth of each queue', async () => {
    const { client } = fakeSqs({
      [GEN_URL]: counts(4, 2, 1, redrive('ias-prod-generation-dlq')),
      [`${GEN_URL}-dlq`]: { ApproximateNumberOfMessages: '3' },
      [QUAL_URL]: counts(0, 1, 0, redrive('ias-prod-quality-dlq')),
      [`${QUAL_URL}-dlq`]: { ApproximateNumberOfMessages: '0' },
    });
    const depths = await queueDepths({ sqs: client, urls: { generation: GEN_URL, quality: QUAL_URL } });
    expect(Object.keys(depths).sort()).toEqual(Object.keys(queues).sort()); // every queue of the manifest
    expect(depths).toMatchObject({
      generation: { visible: 4, in_flight: 2, delayed: 1, dlq_depth: 3, error: null },
      quality: { visible: 0, in_flight: 1, delayed: 0, dlq_depth: 0, error: null },
      embedding: { visible: null, error: 'EMBEDDING_QUEUE_URL is not configured' },
    });
  });

  test('each queue fails on its own, saying why: not configured, SQS refusing, DLQ unreadable, no DLQ', async () => {
    const { client } = fakeSqs({
      [GEN_URL]: counts(1, 0, 0, redrive('ias-prod-generation-dlq')),
      [`${GEN_URL}-dlq`]: new Error('AccessDenied'),
    });
    const depths = await queueDepths({ sqs: client, urls: { generation: GEN_URL, quality: undefined } });
    expect(depths.generation).toEqual({
      visible: 1,
      in_flight: 0,
      delayed: 0,
      dlq_depth: null,
      error: 'SQS did not answer for the dead-letter queue: Error: AccessDenied',
    });
    expect(depths.quality).toEqual({
      visible: null,
      in_flight: null,
      delayed: null,
      dlq_depth: null,
      error: 'QUALITY_QUEUE_URL is not configured',
    });

    const noDlq = fakeSqs({ [GEN_URL]: counts(0, 0, 0), [QUAL_URL]: new Error('socket hang up') });
    const again = await queueDepths({ sqs: noDlq.client, urls: { generation: GEN_URL, quality: QUAL_URL } });
    expect(again.generation).toMatchObject({ visible: 0, dlq_depth: null, error: 'the queue has no dead-letter queue (RedrivePolicy)' });
    expect(again.quality).toMatchObject({ visible: null, error: 'SQS did not answer for the queue: Error: socket hang up' });
  });

  describe('against a real SDK client', () => {
    let hung: Server;
    let port: number;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      // accepts connections and never answers
      hung = createServer((socket) => sockets.push(socket));
      await new Promise<void>((ok) => hung.listen(0, '127.0.0.1', ok));
      port = (hung.address() as { port: number }).port;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((ok) => hung.close(ok));
    });

    test('an SQS endpoint that hangs is given up on after the timeout, per queue', async () => {
      const sqs = new SQSClient({
        region: 'us-east-1',
        endpoint: `http://127.0.0.1:${port}`,
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      });
      const started = Date.now();
      const depths = await queueDepths({
        sqs,
        urls: Object.fromEntries(Object.keys(queues).map((name) => [name, `http://127.0.0.1:${port}/0/ias-${name}`])),
        timeoutMs: 300,
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      for (const depth of Object.values(depths)) {
        expect(depth).toMatchObject({ visible: null, in_flight: null, dlq_depth: null });
        expect(depth.error).toMatch(/^SQS did not answer for the queue: /);
      }
    });
  });
});

describe('queueStats', () => {
  const db = useTestDatabase();

  test('queueStats adds the shedder status and the embedding work, and matches its contract', async () => {
    const { client } = fakeSqs({});
    const shedder = { hot: true, recentThrottles: 5, fallbackRegion: 'us-west-2', disabled: false };
    const stats = await queueStats(
      db,
      { shedderStatus: async () => shedder },
      { sqs: client, urls: { generation: GEN_URL, quality: QUAL_URL } },
    );
    expect(stats.shedder).toEqual(shedder);
    expect(stats.embedding).toEqual({ pending: 0, requests_last_hour: 0, chunks_embedded_last_hour: 0 });
    expect(queueStatsSchema.parse(stats)).toEqual(stats);
  });

  test('the embedding work: chunks waiting (not near-duplicates), embedding requests and chunks embedded in the last hour', async () => {
    const org = (await db.insertInto('organizations').values({ name: 'Stats Org' }).returning('id').executeTakeFirstOrThrow()).id;
    const inv = (
      await db.insertInto('investigations').values({ organization_id: org, title: 'Stats' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    const { embeddingSourceId } = await addWaitingChunks(db, inv, 10);
    const chunks = await db
      .selectFrom('text_chunks')
      .select('id')
      .where('embedding_source_id', '=', embeddingSourceId)
      .orderBy('chunk_index')
      .execute();
    const unit = `[${Array.from({ length: 1024 }, (_, i) => (i === 0 ? 1 : 0)).join(',')}]`;
    // 3 embedded now, 2 an hour and a half ago; one near-duplicate waits for its representative
    await sql`update text_chunks set embedding = ${unit}::vector, embedded_at = now() where id = any(${chunks.slice(0, 3).map((c) => c.id)}::uuid[])`.execute(
      db,
    );
    await sql`update text_chunks set embedding = ${unit}::vector, embedded_at = now() - interval '90 minutes' where id = any(${chunks.slice(3, 5).map((c) => c.id)}::uuid[])`.execute(
      db,
    );
    await db.updateTable('text_chunks').set({ duplicate_of: chunks[6]!.id }).where('id', '=', chunks[9]!.id).execute();
    const call = { purpose: 'embedding' as const, region: 'us-east-1', model_id: 'm', outcome: 'ok' as const };
    await db
      .insertInto('ai_calls')
      .values([
        { ...call },
        { ...call, outcome: 'throttled' },
        { ...call, created_at: new Date(Date.now() - 2 * 3_600_000) },
        { ...call, purpose: 'analysis' },
      ])
      .execute();
    const { client } = fakeSqs({});
    const stats = await queueStats(
      db,
      { shedderStatus: async () => ({ hot: false, recentThrottles: 0, fallbackRegion: 'us-west-2', disabled: false }) },
      { sqs: client, urls: {} },
    );
    expect(stats.embedding).toEqual({ pending: 4, requests_last_hour: 2, chunks_embedded_last_hour: 3 });
  });
});

describe('jobsStatus', () => {
  const db = useTestDatabase();
  const noQueues = { sqs: fakeSqs({}).client, urls: { generation: GEN_URL, quality: QUAL_URL } };

  test('never run: null runs; analyses in flight all zero', async () => {
    const status = await jobsStatus(db, noQueues);
    expect(jobsStatusSchema.parse(status)).toEqual(status);
    expect(status.jobs).toEqual([
      { job: EMBEDDING_SWEEPER_JOB, last_run: null, last_succeeded_at: null, schedule: 'rate(1 hour)' },
      { job: RETENTION_JOB, last_run: null, last_succeeded_at: null, schedule: 'rate(1 day)' },
    ]);
    expect(status.analyses_in_flight).toEqual({
      queued: { count: 0, oldest_age_seconds: null },
      generating: { count: 0, oldest_age_seconds: null },
      checking: { count: 0, oldest_age_seconds: null },
    });
    expect(status.queues.generation.error).toMatch(/does not exist/);
  });

  test('the newest run of each sweep with its report, and when it last succeeded', async () => {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    await db
      .insertInto('job_runs')
      .values([
        {
          job: RETENTION_JOB,
          trigger: 'schedule',
          status: 'succeeded',
          report: JSON.stringify({ deleted_total: 4 }),
          error_message: null,
          started_at: at(90),
          finished_at: at(89),
        },
        {
          job: RETENTION_JOB,
          trigger: 'http',
          status: 'failed',
          report: null,
          error_message: 'database went away',
          started_at: at(30),
          finished_at: at(29),
        },
        {
          job: EMBEDDING_SWEEPER_JOB,
          trigger: 'schedule',
          status: 'succeeded',
          report: JSON.stringify({ embedded: 2 }),
          error_message: null,
          started_at: at(10),
          finished_at: at(9),
        },
        {
          job: EMBEDDING_SWEEPER_JOB,
          trigger: 'schedule',
          status: 'running',
          report: null,
          error_message: null,
          started_at: at(1),
          finished_at: null,
        },
      ])
      .execute();
    const [embedding, retention] = (await jobsStatus(db, noQueues)).jobs;
    expect(retention).toMatchObject({
      job: RETENTION_JOB,
      last_run: { trigger: 'http', status: 'failed', report: null, error_message: 'database went away' },
    });
    expect(new Date(retention!.last_run!.started_at).getTime()).toBeCloseTo(at(30).getTime(), -4);
    expect(new Date(retention!.last_succeeded_at!).getTime()).toBeCloseTo(at(89).getTime(), -4);
    expect(embedding).toMatchObject({ last_run: { status: 'running', finished_at: null, report: null } });
    expect(new Date(embedding!.last_succeeded_at!).getTime()).toBeCloseTo(at(9).getTime(), -4);
    await db.deleteFrom('job_runs').execute();
  });

  test('analyses in flight: counts per status and the age of the oldest, by the database clock', async () => {
    const org = (await db.insertInto('organizations').values({ name: 'Flight Org' }).returning('id').executeTakeFirstOrThrow()).id;
    const inv = (
      await db.insertInto('investigations').values({ organization_id: org, title: 'In flight' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    const add = (status: 'queued' | 'generating' | 'checking' | 'complete' | 'failed', secondsAgo: number) =>
      db
        .insertInto('analyses')
        .values({
          investigation_id: inv,
          analysis_type: 'summary',
          generation_status: status,
          updated_at: sql<Date>`now() - make_interval(secs => ${secondsAgo})`,
        })
        .execute();
    await add('queued', 600);
    await add('queued', 5);
    await add('generating', 120);
    await add('complete', 10_000);
    await add('failed', 10_000);
    const inFlight = await analysesInFlight(db);
    expect(inFlight.queued.count).toBe(2);
    expect(inFlight.queued.oldest_age_seconds).toBeGreaterThanOrEqual(600);
    expect(inFlight.queued.oldest_age_seconds).toBeLessThan(660);
    expect(inFlight.generating).toEqual({ count: 1, oldest_age_seconds: expect.any(Number) });
    expect(inFlight.generating.oldest_age_seconds).toBeGreaterThanOrEqual(120);
    expect(inFlight.checking).toEqual({ count: 0, oldest_age_seconds: null });
  });
});
