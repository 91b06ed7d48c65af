/**
 * Resilience of evidence coming in (issue 26), through the twin rendered from the synthesized stage:
 * - an upload flood from one organization while another analyses: Northwind pours a bulk import and a stream of
 *   evidence items in (every text queued for embedding, the embedding work taking its background share of the
 *   model quota), Harbor asks for analyses meanwhile: Harbor's analyses complete, nobody gets a 5xx but the documented
 *   503 (PGlite's one session busy; sent again after its Retry-After, never a second item), and Northwind's evidence
 *   all becomes ready;
 * - a poison file and a poison text: a damaged PDF is recorded on its file with the reason, a text the model refuses
 *   is isolated to its own source, everything else of the same item and batch goes in, no message rests in a
 *   dead-letter queue and the workers go on.
 * (A worker killed mid-batch: ingestion-crash.e2e.test.ts.)
 */
import { ListQueuesCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { AI_REGIONS } from '../../lib/twin/twin';
import { pdfFile, truncatedPdf } from '../files/fixtures';
import { requestSummaries, retryingAfter503, SETTLED_STATUSES, type TwinTest } from '../support/twin';
import { until } from '../support/until';

export const ingestionUnderLoad = (e2e: TwinTest): void => {
  const paragraph = (n: number) =>
    `Record ${n}: the vendor's invoice ${1000 + n} for ${n % 40} laptops was approved on day ${n % 28} by approver ${n % 17}, ` +
    `paid from cost centre ${n % 9} and booked against purchase order ${5000 + (n % 300)} after a reminder from the buyer. `.repeat(3);

  /**
   * Items written at once beside the import. Four: on PGlite every statement takes turns in one session inside the
   * twin's process, and on a CI machine running two suites at once eight writers pushed a create past its 10 s timeout
   * (a twin capacity limit: Aurora serves each connection its own session; since then a route gives up at its deadline
   * with the documented 503 instead, db/deadline.ts).
   */
  const WRITERS = 4;
  const statuses: number[] = [];
  let retriedAfter503 = 0;
  /** A call as a client makes it: a write carries its idempotency key, so a retry after a 503 never makes a second item. */
  const call = retryingAfter503(e2e.call, (status, sentAgain) => {
    statuses.push(status);
    if (sentAgain) retriedAfter503 += 1;
  });

  test("an upload flood from one organization while another analyses: the other's analyses complete, no 5xx but a retried 503, all the flood ready", async () => {
    const [tokenA, tokenB] = await Promise.all([e2e.token('investigator'), e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor)]);

    const investigation = (await call('POST', '/api/investigations', tokenA, { title: 'The flood' })).body.investigation_id as string;

    // A: a bulk import of 400 documents and, at once, 120 items through the route, four at a time
    const lines = Array.from({ length: 400 }, (_, n) => JSON.stringify({ title: `Imported ${n}`, content: paragraph(n) })).join('\n');
    const started = await call('POST', `/api/investigations/${investigation}/imports`, tokenA, {
      format: 'ndjson',
      size_bytes: Buffer.byteLength(lines),
    });
    expect(started.status).toBe(201);
    expect((await fetch(started.body.upload.url, { method: 'PUT', headers: started.body.upload.headers, body: lines })).status).toBe(200);
    // the flood's four environments started first (a body refused before any database work), as a steady stream finds them
    const warm = await Promise.all(
      Array.from({ length: WRITERS }, () => call('POST', `/api/investigations/${investigation}/evidence`, tokenA, { content: 'no title' })),
    );
    expect(warm.map((res) => res.status)).toEqual(Array(WRITERS).fill(400));
    let next = 0;
    const items = Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < 120) {
          const n = 1000 + next++;
          const res = await call('POST', `/api/investigations/${investigation}/evidence`, tokenA, {
            title: `Item ${n}`,
            content: paragraph(n),
            idempotency_key: `flood-${n}`,
          });
          // a failure names what the function did (a timeout, an error type) beside the answer
          const failed = res.status === 201 ? [] : e2e.twin.invocations('evidence-create').filter((i) => !i.ok);
          expect({ status: res.status, body: res.body, failed }).toMatchObject({ status: 201 });
        }
      }),
    );

    // B, meanwhile: three analyses of its own investigation
    const askedAt = Date.now();
    const analyses = await requestSummaries(call, tokenB, DEMO_INVESTIGATION_IDS.harbor, 3);
    await items;
    const settledB = await until(
      "B's analyses to settle",
      async () => {
        const views = await Promise.all(analyses.map(async (id) => (await call('GET', `/api/analysis/${id}`, tokenB)).body));
        return views.every((v) => SETTLED_STATUSES.includes(v.generation_status)) ? views : undefined;
      },
      120_000,
    );
    const secondsB = (Date.now() - askedAt) / 1000;
    expect(settledB.map((v) => v.generation_status).every((s: string) => s !== 'failed')).toBe(true);

    // A's flood: every item ready, its chunks embedded 96 to a request
    const readyAt = await until(
      "A's evidence to be ready",
      async () => {
        const status = (await call('GET', `/api/investigations/${investigation}/ingestion`, tokenA)).body;
        return status.items_total === 520 && status.items_ready === 520 ? status : undefined;
      },
      240_000,
    );
    const { db } = e2e.twin.database;
    const requests = await db
      .selectFrom('ai_calls')
      .select('outcome')
      .where('purpose', '=', 'embedding')
      .where('outcome', '=', 'ok')
      .execute();
    console.info(
      `upload flood: B's 3 analyses settled ${secondsB.toFixed(0)} s after being asked for (${settledB.map((v) => v.generation_status).join(', ')}); ` +
        `A's 520 items (${readyAt.chunks_total} chunks) ready; ${requests.length} embedding requests; HTTP statuses ${[...new Set(statuses)].join(', ')} (${retriedAfter503} sent again after a 503)`,
    );
    expect(statuses.every((s) => s < 500 || s === 503)).toBe(true);
    expect(readyAt.chunks_pending).toBe(0);
  }, 400_000);

  test('a poison file and a poison text: each is isolated with its reason, the rest goes in, no dead letters, the workers go on', async () => {
    const token = await e2e.token('investigator');
    const investigation = (await call('POST', '/api/investigations', token, { title: 'Poison' })).body.investigation_id as string;
    // the model refuses any text holding this word, in both regions (as it refuses an input it cannot take)
    for (const region of Object.values(AI_REGIONS)) {
      const res = await fetch(`${e2e.twin.bedrock.url}/_standin/faults/${region}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refuseText: 'XPOISONX' }),
      });
      expect(res.ok).toBe(true);
    }
    try {
      const good = pdfFile([['The second ledger shows the same invoice twice.']]);
      const broken = truncatedPdf();
      const poisonText = Buffer.from('This note holds XPOISONX, a text the model will not take.');
      const created = await call('POST', `/api/investigations/${investigation}/evidence`, token, {
        title: 'Mixed bundle',
        content: 'The bundle as received from the whistle-blower.',
        attachments: [
          { file_name: 'ledger.pdf', content_type: 'application/pdf', size_bytes: good.length },
          { file_name: 'broken.pdf', content_type: 'application/pdf', size_bytes: broken.length },
          { file_name: 'note.txt', content_type: 'text/plain', size_bytes: poisonText.length },
        ],
      });
      expect(created.status).toBe(201);
      const bodies = [good, broken, poisonText];
      for (const [i, upload] of created.body.uploads.entries())
        expect((await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bodies[i] })).status).toBe(200);
      const other = await call('POST', `/api/investigations/${investigation}/evidence`, token, {
        title: 'Clean item',
        content: 'A clean note written the same minute.',
      });
      const path = `/api/investigations/${investigation}/evidence`;
      const settled = await until(
        'the bundle to settle',
        async () => {
          const item = (await call('GET', `${path}/${created.body.evidence_id}`, token)).body;
          const clean = (await call('GET', `${path}/${other.body.evidence_id}`, token)).body;
          const sources = await e2e.twin.database.db
            .selectFrom('embedding_sources')
            .select(['status', 'attempts'])
            .where('evidence_item_id', '=', created.body.evidence_id)
            .execute();
          const waiting = await e2e.twin.database.db
            .selectFrom('text_chunks')
            .select('id')
            .where('evidence_item_id', '=', created.body.evidence_id)
            .where('embedding', 'is', null)
            .execute();
          // the poison text is tried again later until its source is given up; one refusal, with every file read and
          // nothing but one chunk waiting, settles what this test shows
          const refused = sources.some((s) => s.status === 'error');
          const filesRead = item.attachments.every((a: { state: string }) => a.state === 'extracted' || a.state === 'error');
          const settledAround = refused && filesRead && waiting.length <= 1 && clean.readiness === 'ready';
          return item.readiness !== 'processing' || settledAround ? { item, clean } : undefined;
        },
        120_000,
      );
      const states = Object.fromEntries(settled.item.attachments.map((a: { file_name: string; state: string }) => [a.file_name, a.state]));
      expect(states).toEqual({ 'ledger.pdf': 'extracted', 'broken.pdf': 'error', 'note.txt': 'extracted' });
      expect(settled.item.attachments[1].error).toMatch(/PDF/);
      expect(settled.clean.readiness).toBe('ready');
      const chunks = await e2e.twin.database.db
        .selectFrom('text_chunks')
        .select(['text', 'embedding'])
        .where('evidence_item_id', '=', created.body.evidence_id)
        .execute();
      // everything of the item but the poison text has its vector; the poison text waits, blamed alone
      expect(chunks.filter((c) => c.embedding === null).map((c) => c.text)).toEqual([poisonText.toString()]);
      const status = (await call('GET', `/api/investigations/${investigation}/ingestion`, token)).body;
      expect(status.failed).toContainEqual(expect.objectContaining({ file_name: 'broken.pdf', message: expect.stringMatching(/PDF/) }));

      // no message rests in a dead-letter queue: a poison is recorded and done with, not retried into the DLQ
      const sqs = new SQSClient({
        endpoint: e2e.twin.aws.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      });
      try {
        const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({}));
        for (const url of QueueUrls.filter((u) => /dlq/i.test(u))) {
          const { Attributes } = await sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: url,
              AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
            }),
          );
          expect({ url, ...Attributes }).toEqual({ url, ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
        }
      } finally {
        sqs.destroy();
      }
    } finally {
      await fetch(`${e2e.twin.bedrock.url}/_standin/faults`, { method: 'DELETE' });
    }
  }, 200_000);
};
