/**
 * An analysis requested while its evidence is still being embedded waits for it instead of failing, and still ends
 * inside the client's 5-minute polling window (analysis/evidence-wait.ts): the rule, the watchdog leaving a waiting
 * analysis alone, and the generation worker's core (generateAnalysis) through the real AI gateway and the Bedrock
 * stand-in, with the embedding work run between two deliveries of its message.
 */
import { sql } from 'kysely';
import { createAiGateway } from '#core/ai/gateway';
import { ATTEMPT_TIMEOUT_DEFAULTS_MS } from '#core/ai/timeouts';
import {
  CLIENT_POLL_WINDOW_MS,
  evidenceWait,
  evidenceWaitMs,
  RECHECK_SECONDS,
  WaitingForEvidenceError,
} from '#core/analysis/evidence-wait';
import { generateAnalysis } from '#core/analysis/generation';
import { getAnalysis } from '#core/analysis/read';
import { staleAction } from '#core/analysis/watchdog';
import { retryDelaySeconds } from '#core/analysis/worker';
import { writeSourceChunks } from '#core/embeddings/chunk-store';
import { embedWaitingChunks, gatewayEmbedder } from '#core/embeddings/embedding-work';
import { gatewayConfig } from '../support/ai';
import { useTestDatabase } from '../support/db';
import { useStandin } from '../support/standin-clients';

describe('the rule', () => {
  test('the wait fits the polling window: 300 s less the generation’s worst case (2 × 10 s + 2 × 80 s), a recheck and a margin', () => {
    expect(CLIENT_POLL_WINDOW_MS).toBe(300_000);
    expect(evidenceWaitMs(ATTEMPT_TIMEOUT_DEFAULTS_MS)).toBe(100_000);
    expect(evidenceWaitMs({ embedding: 10_000, analysis: 130_000 })).toBe(0); // a stage with slower attempts does not wait
  });

  test('it waits while an item is processing and the analysis is young enough; since is kept from the first wait', () => {
    const requestedAt = new Date('2026-01-01T09:00:00Z');
    const at = (s: number) => new Date(requestedAt.getTime() + s * 1000);
    const counts = { total: 5, ready: 3, processing: 2 };
    expect(evidenceWait({ counts, requestedAt, waitingSince: undefined, now: at(1), maxWaitMs: 100_000 })).toEqual({
      since: at(1).toISOString(),
      ready: 3,
      total: 5,
    });
    expect(evidenceWait({ counts, requestedAt, waitingSince: at(1).toISOString(), now: at(50), maxWaitMs: 100_000 })).toMatchObject({
      since: at(1).toISOString(),
    });
    expect(evidenceWait({ counts, requestedAt, waitingSince: at(1).toISOString(), now: at(100), maxWaitMs: 100_000 })).toBeNull();
    expect(
      evidenceWait({ counts: { ...counts, processing: 0 }, requestedAt, waitingSince: undefined, now: at(1), maxWaitMs: 100_000 }),
    ).toBeNull();
  });

  test('the worker sends a waiting analysis’s message again a recheck later; the watchdog leaves it alone', () => {
    const now = new Date();
    const error = new WaitingForEvidenceError({ since: now.toISOString(), ready: 1, total: 2 }, now);
    expect(retryDelaySeconds(1, error)).toBe(RECHECK_SECONDS);
    // queued, requested 4 minutes ago, put back by its last recheck a few seconds ago — and even half an hour ago
    for (const putBackAgoMs of [5_000, 30 * 60_000])
      expect(staleAction({ generation_status: 'queued', updated_at: new Date(now.getTime() - putBackAgoMs) }, now)).toBeUndefined();
  });
});

describe('the generation worker’s core', () => {
  const db = useTestDatabase();
  const { client } = useStandin();
  const gateway = () => createAiGateway({ db, client, config: gatewayConfig() });
  let organizationId = '';

  beforeAll(async () => {
    organizationId = (await db.insertInto('organizations').values({ name: 'Waiting Org' }).returning('id').executeTakeFirstOrThrow()).id;
  });

  /** An investigation with evidence items whose text is written as chunks, as the ingestion routes write it: waiting for embeddings. */
  const investigationWithEvidence = async (texts: string[]) => {
    const id = (
      await db
        .insertInto('investigations')
        .values({ organization_id: organizationId, title: 'Harlow invoices' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    for (const [i, content] of texts.entries()) {
      const item = (
        await db
          .insertInto('evidence_items')
          .values({ investigation_id: id, title: `Item ${i}`, content })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      await db
        .transaction()
        .execute((trx) =>
          writeSourceChunks(
            trx,
            { investigation_id: id, source_type: 'content', source_id: item, evidence_item_id: item, background_document_id: null },
            content,
          ),
        );
    }
    return id;
  };
  const analysisOf = async (investigationId: string, createdAgoMs = 0) =>
    (
      await db
        .insertInto('analyses')
        .values({ investigation_id: investigationId, analysis_type: 'summary', created_at: new Date(Date.now() - createdAgoMs) })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const row = (id: string) =>
    db
      .selectFrom('analyses')
      .select(['generation_status', 'waiting_for_evidence', 'claimed_until', 'error_message'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const embedAll = () => embedWaitingChunks(db, { embedder: gatewayEmbedder(gateway()), timeBudgetMs: 60_000 });

  test('an analysis requested while its evidence is embedding waits, says so to the client, and completes once it is embedded', async () => {
    const investigationId = await investigationWithEvidence([
      'The director approved the Harlow invoice on 4 March without a second signature.',
      'Invoices from Harlow were split to stay below the 25,000 bid threshold.',
    ]);
    const id = await analysisOf(investigationId);

    // the first delivery: nothing is embedded, both items are processing → queued again, waiting
    const first = await generateAnalysis({ db, gateway: gateway() }, id).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(WaitingForEvidenceError);
    const waiting = await row(id);
    expect(waiting).toMatchObject({ generation_status: 'queued', claimed_until: null, error_message: null });
    const view = (await getAnalysis(db, organizationId, id, undefined))!;
    expect(view.waiting_for_evidence).toEqual({ ready: 0, total: 2, since: expect.any(String) as string });
    expect(view.generation_status).toBe('queued');

    // a recheck before the embeddings are done: still waiting, since the same moment
    await expect(generateAnalysis({ db, gateway: gateway() }, id)).rejects.toBeInstanceOf(WaitingForEvidenceError);
    expect((await getAnalysis(db, organizationId, id, undefined))!.waiting_for_evidence!.since).toBe(view.waiting_for_evidence!.since);

    // the embedding worker runs; the next delivery generates
    expect(await embedAll()).toMatchObject({ embedded: 2, waiting: 0 });
    expect(await generateAnalysis({ db, gateway: gateway() }, id)).toBe('complete');
    expect(await row(id)).toMatchObject({ generation_status: 'complete', waiting_for_evidence: null });
    expect((await getAnalysis(db, organizationId, id, undefined))!.waiting_for_evidence).toBeNull();
    const records = await db.selectFrom('retrieval_records').select('evidence_item_id').distinct().where('analysis_id', '=', id).execute();
    expect(records).toHaveLength(2);
  }, 60_000);

  test('the wait is bounded: an analysis requested longer ago than it may wait is generated with what is embedded', async () => {
    const investigationId = await investigationWithEvidence(['The Harlow invoice was approved on 4 March by the director.']);
    await embedAll();
    // a second item arrives and waits for its embeddings
    const late = await investigationWithEvidence(['Not yet embedded: the second Harlow invoice.']);
    await sql`update evidence_items set investigation_id = ${investigationId} where investigation_id = ${late}`.execute(db);
    await sql`update embedding_sources set investigation_id = ${investigationId} where investigation_id = ${late}`.execute(db);
    await sql`update text_chunks set investigation_id = ${investigationId} where investigation_id = ${late}`.execute(db);
    const id = await analysisOf(investigationId, evidenceWaitMs(ATTEMPT_TIMEOUT_DEFAULTS_MS) + 1_000);

    expect(await generateAnalysis({ db, gateway: gateway() }, id)).toBe('complete');
    const records = await db.selectFrom('retrieval_records').select('evidence_item_id').distinct().where('analysis_id', '=', id).execute();
    expect(records).toHaveLength(1);
  }, 60_000);

  test('past the bound with nothing embedded, it fails with the message it always had', async () => {
    const investigationId = await investigationWithEvidence(['Nothing of this is embedded yet.']);
    const id = await analysisOf(investigationId, evidenceWaitMs(ATTEMPT_TIMEOUT_DEFAULTS_MS) + 1_000);
    expect(await generateAnalysis({ db, gateway: gateway() }, id)).toBe('failed');
    expect(await row(id)).toMatchObject({
      generation_status: 'failed',
      waiting_for_evidence: null,
      error_message:
        'No evidence of this investigation is ready for analysis yet (nothing is embedded). Try again once evidence has been processed.',
    });
  }, 60_000);
});
