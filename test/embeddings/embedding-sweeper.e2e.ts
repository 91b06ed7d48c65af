/**
 * The embedding sweeper end to end through the twin: POST /api/admin/cron/embedding-sweeper → the
 * API Gateway stand-in → functions/cron/embedding-sweeper.ts → the database, with every chunk
 * embedded through the REAL Bedrock SDK client against the Bedrock stand-in; and the scheduled run of
 * the same handler. Needs the manifest entry of `embedding-sweeper` to be
 * 'functions/cron/embedding-sweeper.ts'. And the embedding worker, woken by a message on its queue. Runs on PGlite,
 * or on real PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { sweepRunSchema } from '#core/embeddings/report';
import { fromVectorLiteral } from '#core/embeddings/sources';
import { functionById } from '#manifest';
import { embedText } from '../../lib/twin/bedrock/text';
import { AI_REGIONS, type Twin } from '../../lib/twin/twin';
import { addWaitingChunks } from '../support/fixtures';
import type { TwinTest } from '../support/twin';

export const embeddingSweeper = (e2e: TwinTest): void => {
  const PATH = '/api/admin/cron/embedding-sweeper';

  let twin: Twin;
  let db: Kysely<Database>;
  let investigationId: string;
  let organizationId: string;
  let itemId: string;

  beforeAll(async () => {
    twin = e2e.twin;
    db = twin.database.db;

    // a small investigation with one source of each type (the background document not included for the AI)
    organizationId = (await db.insertInto('organizations').values({ name: 'Sweeper Org' }).returning('id').executeTakeFirstOrThrow()).id;
    investigationId = (
      await db
        .insertInto('investigations')
        .values({ organization_id: organizationId, title: 'Kickbacks' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    itemId = (
      await db
        .insertInto('evidence_items')
        .values({
          investigation_id: investigationId,
          title: 'Interview notes',
          content: Array.from(
            { length: 20 },
            (_, i) => `Note ${i}: the director approved vendor invoice ${1000 + i} without a second signature.`,
          ).join(' '),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const attachmentId = (
      await db
        .insertInto('attachments')
        .values({
          evidence_item_id: itemId,
          file_name: 'email.txt',
          content_type: 'text/plain',
          storage_key: `k/${randomUUID()}`,
          extracted_text: 'Please route the Harlow payment through the consulting account before the audit.',
          extraction_status: 'extracted',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const documentId = (
      await db
        .insertInto('background_documents')
        .values({
          investigation_id: investigationId,
          title: 'Policy',
          file_name: 'policy.txt',
          content_type: 'text/plain',
          storage_key: `k/${randomUUID()}`,
          extracted_text: 'Every vendor payment above 10,000 needs two approvals.',
          extraction_status: 'extracted',
          included_for_ai: false,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('embedding_sources')
      .values([
        { investigation_id: investigationId, source_type: 'content', source_id: itemId },
        { investigation_id: investigationId, source_type: 'attachment', source_id: attachmentId },
        { investigation_id: investigationId, source_type: 'background_doc', source_id: documentId },
      ])
      .execute();
  }, 60_000);

  const post = (token?: string) => e2e.call('POST', PATH, token);

  const statuses = async () => await db.selectFrom('embedding_sources').select(['source_type', 'status']).orderBy('source_type').execute();

  /** Runs `fn`; returns what the sweeper function wrote to its log meanwhile (the EMF metric line goes there). */
  const capturingStdout = async <T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> => {
    const before = twin.logs('embedding-sweeper').length;
    const result = await fn();
    return {
      result,
      lines: twin
        .logs('embedding-sweeper')
        .slice(before)
        .flatMap((l) => l.text.split('\n'))
        .filter(Boolean),
    };
  };

  test('the manifest points the embedding sweeper at its handler', () => {
    expect(functionById('embedding-sweeper').entry).toBe('functions/cron/embedding-sweeper.ts');
  });

  test('a wrong or missing bearer → 401, and nothing is swept', async () => {
    const before = await statuses();
    expect((await post('not-the-cron-secret')).status).toBe(401);
    expect((await post()).status).toBe(401);
    const investigator = await twin.token({ subject: 'inv-1', email: 'inv@example.test', role: 'investigator', organizationId });
    expect((await post(investigator)).status).toBe(403);
    expect(await statuses()).toEqual(before);
    expect(before.every((s) => s.status === 'pending')).toBe(true);
    expect(await db.selectFrom('text_chunks').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('job_runs').select('id').where('job', '=', 'embedding-sweeper').execute()).toEqual([]);
  });

  test('the cron secret → 200 with the report; every source embedded through the real SDK client and the stand-in', async () => {
    const callsBefore = twin.bedrock.stats()[AI_REGIONS.primary]?.ok ?? 0;
    const { result: res, lines } = await capturingStdout(() => post(twin.cronSecret));
    expect(res.status).toBe(200);
    expect(sweepRunSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({ embedded: 3, failed: 0, remaining: 0, pendingOver24hAfterSweep: 0, stopped_by: 'done' });
    expect((await statuses()).map((s) => s.status)).toEqual(['embedded', 'embedded', 'embedded']);

    // ONE InvokeModel call for all the investigation's chunks reached the stand-in, and its vectors are what was stored
    const chunks = await db.selectFrom('text_chunks').selectAll().orderBy('source_type').orderBy('chunk_index').execute();
    expect(chunks.length).toBe(res.body.chunks);
    expect(chunks.length).toBeGreaterThan(3);
    expect((twin.bedrock.stats()[AI_REGIONS.primary]?.ok ?? 0) - callsBefore).toBe(1);
    expect(
      chunks.every(
        (c) => c.embedding_model === twin.plan.functions.find((f) => f.id === 'embedding-sweeper')!.environment.AI_MODEL_EMBEDDING,
      ),
    ).toBe(true);
    for (const chunk of chunks) {
      const stored = fromVectorLiteral(chunk.embedding!);
      const expected = embedText(chunk.text, 1024);
      expect(stored).toHaveLength(1024);
      expect(Math.max(...stored.map((v, i) => Math.abs(v - expected[i]!)))).toBeLessThan(1e-6);
    }

    // the job run, and the metric line the alarm reads
    const run = await db.selectFrom('job_runs').selectAll().where('id', '=', res.body.job_run_id).executeTakeFirstOrThrow();
    expect(run).toMatchObject({ job: 'embedding-sweeper', trigger: 'http', status: 'succeeded' });
    const emf = lines
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return {};
        }
      })
      .find((l) => '_aws' in l);
    expect(emf).toMatchObject({ PendingOver24hAfterSweep: 0 });
    expect(JSON.stringify(emf)).toContain('"Namespace":"InvestigationAnalysis"');
  });

  test('an admin token may run it too', async () => {
    const admin = await twin.token({ subject: 'admin-1', email: 'admin@example.test', role: 'admin', organizationId: undefined });
    const { result: res } = await capturingStdout(() => post(admin));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ embedded: 0, remaining: 0 });
  });

  test('the scheduled run of the same handler embeds what is pending and returns the report', async () => {
    const schedule = twin.plan.schedules.find((s) => s.functionId === 'embedding-sweeper')!;
    const another = await db
      .insertInto('evidence_items')
      .values({ investigation_id: investigationId, title: 'Late item', content: 'A late note about the audit.' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('embedding_sources')
      .values({ investigation_id: investigationId, source_type: 'content', source_id: another.id })
      .execute();
    // what EventBridge Scheduler sends: the schedule's input, to the function
    const outcome = await twin.invoke(schedule.functionId, JSON.parse(schedule.input!));
    expect(outcome.ok).toBe(true);
    const result = outcome.ok ? outcome.value : undefined;
    expect(sweepRunSchema.parse(result)).toMatchObject({ embedded: 1, remaining: 0 });
    const run = await db
      .selectFrom('job_runs')
      .selectAll()
      .where('id', '=', (result as { job_run_id: string }).job_run_id)
      .executeTakeFirstOrThrow();
    expect(run).toMatchObject({ trigger: 'schedule', status: 'succeeded' });
  });

  test('a throttle storm in the primary region is absorbed by the fallback region', async () => {
    const item = await db
      .insertInto('evidence_items')
      .values({ investigation_id: investigationId, title: 'Storm', content: 'Text embedded during a throttle storm.' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('embedding_sources')
      .values({ investigation_id: investigationId, source_type: 'content', source_id: item.id })
      .execute();
    twin.bedrock.setFaults(AI_REGIONS.primary, { throttleRatio: 1 });
    try {
      const { result: res } = await capturingStdout(() => post(twin.cronSecret));
      expect(res.body).toMatchObject({ embedded: 1, failed: 0, remaining: 0 });
    } finally {
      twin.bedrock.clearFaults();
    }
    const regions = await db
      .selectFrom('ai_calls')
      .select(['region', 'outcome'])
      .where('purpose', '=', 'embedding')
      .orderBy('id', 'desc')
      .limit(4)
      .execute();
    expect(regions.reverse()).toEqual([
      { region: AI_REGIONS.primary, outcome: 'throttled' },
      { region: AI_REGIONS.primary, outcome: 'throttled' },
      { region: AI_REGIONS.primary, outcome: 'throttled' },
      { region: AI_REGIONS.fallback, outcome: 'ok' },
    ]);
  }, 30_000);

  test('both regions throttling: the sweep stops without blaming the source, which the next run embeds', async () => {
    const late = await db
      .insertInto('evidence_items')
      .values({ investigation_id: investigationId, title: 'Throttled', content: 'Text that meets a throttle.' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const source = await db
      .insertInto('embedding_sources')
      .values({ investigation_id: investigationId, source_type: 'content', source_id: late.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    twin.bedrock.setFaults(AI_REGIONS.primary, { throttleRatio: 1 });
    twin.bedrock.setFaults(AI_REGIONS.fallback, { throttleRatio: 1 });
    try {
      const { result: res } = await capturingStdout(() => post(twin.cronSecret));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ failed: 0, embedded: 0, stopped_by: 'ai_unavailable', remaining: 1 });
    } finally {
      twin.bedrock.clearFaults();
    }
    const row = await db.selectFrom('embedding_sources').selectAll().where('id', '=', source.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 0, error_message: null });
    const unavailable = twin.logs('embedding-sweeper').filter((l) => /the AI service is unavailable/.test(l.text));
    expect(unavailable.at(-1)?.text).toMatch(/unavailable in both regions/i);
    // the next run, with the model back, retries and embeds it
    const { result: again } = await capturingStdout(() => post(twin.cronSecret));
    expect(again.body).toMatchObject({ embedded: 1, failed: 0, remaining: 0 });
  }, 30_000);

  describe('the embedding worker, woken on its queue', () => {
    const sqs = () => new SQSClient(e2e.awsConfig());
    const wake = (body: object) =>
      sqs().send(new SendMessageCommand({ QueueUrl: twin.aws.queues.embedding.url, MessageBody: JSON.stringify(body) }));
    const statusOf = async (sourceId: string) =>
      (await db.selectFrom('embedding_sources').select('status').where('id', '=', sourceId).executeTakeFirstOrThrow()).status;
    const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 45_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };

    test('a wake-up: the worker embeds the waiting chunks 96 to a request through the real SDK client', async () => {
      const { embeddingSourceId } = await addWaitingChunks(db, investigationId, 200);
      const before = twin.bedrock.stats()[AI_REGIONS.primary]?.ok ?? 0;
      await wake({ investigation_id: investigationId });
      await until('the source is embedded', async () => (await statusOf(embeddingSourceId)) === 'embedded');
      expect((twin.bedrock.stats()[AI_REGIONS.primary]?.ok ?? 0) - before).toBe(3);
      const left = await db
        .selectFrom('text_chunks')
        .select('id')
        .where('embedding_source_id', '=', embeddingSourceId)
        .where('embedding', 'is', null)
        .execute();
      expect(left).toEqual([]);
    }, 60_000);

    test('a chunk the model refuses: its source is in error, and the worker wakes itself for when it may be tried again', async () => {
      for (const region of Object.values(AI_REGIONS)) twin.bedrock.setFaults(region, { refuseText: 'POISON' });
      try {
        const { embeddingSourceId } = await addWaitingChunks(db, investigationId, 3, (i) =>
          i === 1 ? 'A POISON line.' : `Clean line ${i}.`,
        );
        const sent = () => twin.awsCalls().filter((c) => c.functionId === 'embedding-worker' && c.action === 'sqs:SendMessage');
        const sentBefore = sent().length;
        await wake({ investigation_id: investigationId });
        await until('the source is in error', async () => (await statusOf(embeddingSourceId)) === 'error');
        await until('the worker sent itself a wake-up', () => sent().length > sentBefore);
        expect(sent().at(-1)).toMatchObject({ allowed: true, resource: twin.aws.queues.embedding.arn });
        const chunks = await db
          .selectFrom('text_chunks')
          .select(['text', 'embedding'])
          .where('embedding_source_id', '=', embeddingSourceId)
          .orderBy('chunk_index')
          .execute();
        expect(chunks.map((c) => [c.text, c.embedding !== null])).toEqual([
          ['Clean line 0.', true],
          ['A POISON line.', false],
          ['Clean line 2.', true],
        ]);
      } finally {
        twin.bedrock.clearFaults();
      }
    }, 60_000);
  });
};
