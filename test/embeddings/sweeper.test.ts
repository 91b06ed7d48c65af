/**
 * The sweeper (the embedding work run as the hourly backstop) on the real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL), with an injected deterministic embedder (the Bedrock stand-in's feature hashing, 1024
 * dimensions) that records its requests. Sources are written as the seed loader and the rows of before migration
 * 0014 are — a status row, no chunk — or as every writer now writes them (chunk-store.ts writeSourceChunks).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { AiRequestError } from '#core/ai/errors';
import { DEFAULT_AI_MODELS } from '#core/config';
import type { SourceType } from '#core/db/schema';
import { claimChunks, releaseChunks } from '#core/embeddings/chunk-claims';
import { writeSourceChunks } from '#core/embeddings/chunk-store';
import { chunkText } from '#core/embeddings/chunking';
import type { Embedder } from '#core/embeddings/embedding-work';
import { EMBEDDING_SWEEPER_JOB, runEmbeddingSweep } from '#core/embeddings/job';
import { sweepReportSchema, type SweepReport } from '#core/embeddings/report';
import { fromVectorLiteral, toVectorLiteral } from '#core/embeddings/sources';
import { sweepEmbeddings, type SweepOptions } from '#core/embeddings/sweeper';
import { seedDemo } from '#core/seed/load';
import { embedText } from '../../lib/twin/bedrock/text';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();

const HOUR = 3_600_000;
const MODEL = DEFAULT_AI_MODELS.embedding;

/** The stand-in's embedder as one model request per call; `requests` records each request's texts. */
const fakeEmbedder = (refuse: (text: string) => boolean = () => false) => {
  const requests: string[][] = [];
  const embedder: Embedder = {
    model: MODEL,
    embed: async (texts) => {
      requests.push(texts);
      if (texts.some(refuse))
        throw new AiRequestError(
          'us-east-1',
          Object.assign(new Error('input contains forbidden content'), { name: 'ValidationException' }),
        );
      return texts.map((t) => embedText(t, 1024));
    },
  };
  return { embedder, requests };
};
const poisoned = () => fakeEmbedder((t) => t.includes('POISON'));

/** Sweeps without publishing metrics; `embedder` defaults to a fresh fake. */
const sweep = (options: Partial<SweepOptions> = {}): Promise<SweepReport> =>
  sweepEmbeddings(db, { embedder: fakeEmbedder().embedder, ...options });

// ---- fixtures --------------------------------------------------------------------------------

const paragraphs = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `The ${topic} record ${i} shows a payment approved by the regional director. ` +
      `It was entered on the ${i + 1}th and reviewed later by internal audit.`,
  ).join('\n\n');

let investigationId: string;

const newInvestigation = async (): Promise<string> => {
  const org = await db
    .insertInto('organizations')
    .values({ name: `Org ${randomUUID()}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const inv = await db
    .insertInto('investigations')
    .values({ organization_id: org.id, title: 'Vendor kickbacks' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inv.id;
};

interface SourceRow {
  status?: 'pending' | 'embedded' | 'error';
  attempts?: number;
  error_message?: string | null;
  created_at?: Date;
}

/** A status row with no chunk: as the seed loader writes it, and as rows were before migration 0014. */
const addSource = async (source_type: SourceType, source_id: string, row: SourceRow = {}) =>
  await db
    .insertInto('embedding_sources')
    .values({
      investigation_id: investigationId,
      source_type,
      source_id,
      status: row.status ?? 'pending',
      attempts: row.attempts ?? 0,
      error_message: row.error_message ?? null,
      ...(row.created_at && { created_at: row.created_at }),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

const addEvidence = async (content: string, row?: SourceRow) => {
  const item = await db
    .insertInto('evidence_items')
    .values({ investigation_id: investigationId, title: `Item ${content.slice(0, 20)}`, content })
    .returning('id')
    .executeTakeFirstOrThrow();
  const source = await addSource('content', item.id, row);
  return { itemId: item.id, sourceId: source.id };
};

/** An evidence item whose text is written as chunks, as every writer now writes it. */
const writeEvidence = async (content: string) => {
  const item = await db
    .insertInto('evidence_items')
    .values({ investigation_id: investigationId, title: `Item ${content.slice(0, 20)}`, content })
    .returning('id')
    .executeTakeFirstOrThrow();
  const written = await rewrite(item.id, content);
  return { itemId: item.id, sourceId: written.embedding_source_id };
};

/** The evidence item's text changed: written again (its old chunks go, the new ones wait). */
const rewrite = async (itemId: string, content: string) =>
  db.transaction().execute(async (trx) => {
    await trx.updateTable('evidence_items').set({ content }).where('id', '=', itemId).execute();
    return writeSourceChunks(
      trx,
      {
        investigation_id: investigationId,
        source_type: 'content',
        source_id: itemId,
        evidence_item_id: itemId,
        background_document_id: null,
      },
      content,
    );
  });

const addAttachment = async (itemId: string, text: string | null, row?: SourceRow) => {
  const a = await db
    .insertInto('attachments')
    .values({
      evidence_item_id: itemId,
      file_name: 'a.txt',
      content_type: 'text/plain',
      storage_key: `k/${randomUUID()}`,
      extracted_text: text,
      extraction_status: 'extracted',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { attachmentId: a.id, sourceId: (await addSource('attachment', a.id, row)).id };
};

const addBackgroundDoc = async (
  text: string | null,
  doc: { included_for_ai?: boolean; extraction_status?: 'pending' | 'extracted' | 'error'; extraction_error?: string } = {},
  row?: SourceRow,
) => {
  const d = await db
    .insertInto('background_documents')
    .values({
      investigation_id: investigationId,
      title: 'Policy',
      file_name: 'p.txt',
      content_type: 'text/plain',
      storage_key: `k/${randomUUID()}`,
      extracted_text: text,
      extraction_status: doc.extraction_status ?? 'extracted',
      extraction_error: doc.extraction_error ?? null,
      included_for_ai: doc.included_for_ai ?? true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { documentId: d.id, sourceId: (await addSource('background_doc', d.id, row)).id };
};

const sourceRow = (id: string) => db.selectFrom('embedding_sources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const chunksOf = (sourceId: string) =>
  db.selectFrom('text_chunks').selectAll().where('embedding_source_id', '=', sourceId).orderBy('chunk_index').execute();

const statuses = async () => (await db.selectFrom('embedding_sources').select(['status']).execute()).map((r) => r.status).sort();

/** The retry time of every chunk the model refused comes (they are deferred for minutes). */
const retryTimeComes = () =>
  sql`update text_chunks set embed_lease_until = now() - interval '1 second' where embedding is null`.execute(db);

beforeEach(async () => {
  // everything hangs off organizations (cascade); job_runs stands alone
  await db.deleteFrom('organizations').execute();
  await db.deleteFrom('job_runs').execute();
  investigationId = await newInvestigation();
});

// ---- embedding -------------------------------------------------------------------------------

describe('embedding sources', () => {
  test('pending and errored sources of every type get embedded: chunks stored with 1024-dimension vectors of the model', async () => {
    const content = paragraphs('ledger', 6);
    const evidence = await addEvidence(content);
    const retried = await addEvidence('The vendor invoice was paid twice in March.', {
      status: 'error',
      attempts: 2,
      error_message: 'ThrottlingException: slow down',
    });
    const attachment = await addAttachment(evidence.itemId, 'Attached email: please approve the kickback before Friday.');
    const excluded = await addBackgroundDoc('Procurement policy: every vendor needs two approvals.', { included_for_ai: false });
    const empty = await addEvidence('   ');
    const written = await writeEvidence('Written at ingestion: the warehouse log for March.');
    const { embedder, requests } = fakeEmbedder();

    const report = await sweep({ embedder });

    expect(sweepReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({
      embedded: 6,
      failed: 0,
      gave_up: 0,
      skipped: 0,
      removed: 0,
      remaining: 0,
      pendingOver24hAfterSweep: 0,
      stopped_by: 'done',
    });
    expect(report.chunks).toBe(chunkText(content).length + 4);
    // every chunk in ONE request: the sources' texts are batched, not sent one chunk at a time
    expect(requests).toHaveLength(1);
    expect(requests[0]).toHaveLength(report.chunks);
    for (const id of [evidence.sourceId, retried.sourceId, attachment.sourceId, excluded.sourceId, empty.sourceId, written.sourceId]) {
      // materialising a row writes its text again: its attempts start over
      expect(await sourceRow(id)).toMatchObject({ status: 'embedded', attempts: 0, error_message: null });
    }

    // the chunks: text, order, owner, token estimate, the vector the model gave for that text, and the model
    const stored = await chunksOf(evidence.sourceId);
    expect(stored.map((c) => c.text)).toEqual(chunkText(content).map((c) => c.text));
    expect(stored.map((c) => c.chunk_index)).toEqual(stored.map((_, i) => i));
    expect(
      stored.every((c) => c.evidence_item_id === evidence.itemId && c.background_document_id === null && c.source_type === 'content'),
    ).toBe(true);
    expect(stored.every((c) => c.embedding_model === MODEL && c.embedded_at instanceof Date && c.embed_lease_until === null)).toBe(true);
    expect(stored[0]!.token_count).toBe(Math.ceil(stored[0]!.text.length / 4));
    const vector = fromVectorLiteral(stored[0]!.embedding!);
    expect(vector).toHaveLength(1024);
    expect(vector[0]).toBeCloseTo(embedText(stored[0]!.text, 1024)[0]!, 5);

    const [att] = await chunksOf(attachment.sourceId);
    expect(att).toMatchObject({ source_type: 'attachment', evidence_item_id: evidence.itemId, background_document_id: null });
    const [doc] = await chunksOf(excluded.sourceId);
    expect(doc).toMatchObject({ source_type: 'background_doc', evidence_item_id: null, background_document_id: excluded.documentId });
    expect(await chunksOf(empty.sourceId)).toEqual([]);
    // and the rows got the item or document they belong to
    expect(await sourceRow(attachment.sourceId)).toMatchObject({ evidence_item_id: evidence.itemId, background_document_id: null });
    expect(await sourceRow(excluded.sourceId)).toMatchObject({ evidence_item_id: null, background_document_id: excluded.documentId });
  });

  test('pgvector answers similarity queries over the stored vectors', async () => {
    await addEvidence('The warehouse shipment arrived late and was stored overnight.');
    await addEvidence('Email from the director approving the kickback payment to the vendor.');
    await addBackgroundDoc('Quarterly revenue figures for the northern region.');
    await sweep();

    const query = toVectorLiteral(embedText('kickback payment approved by director', 1024));
    const { rows } = await sql<{ text: string; similarity: number; dims: number }>`
      select text, 1 - (embedding <=> ${query}::vector) as similarity, vector_dims(embedding) as dims
      from text_chunks where investigation_id = ${investigationId}
      order by embedding <=> ${query}::vector limit 3`.execute(db);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.dims === 1024)).toBe(true);
    expect(rows[0]!.text).toMatch(/kickback/);
    expect(Number(rows[0]!.similarity)).toBeGreaterThan(Number(rows[1]!.similarity));
  });

  test('a source whose text is written again gets its chunks replaced, never duplicated', async () => {
    const { itemId, sourceId } = await writeEvidence(paragraphs('first', 6));
    await sweep();
    const before = await chunksOf(sourceId);
    expect(before.length).toBeGreaterThan(1);

    await rewrite(itemId, 'A short replacement text.');
    expect(await sourceRow(sourceId)).toMatchObject({ status: 'pending', attempts: 0 });
    await sweep();

    const after = await chunksOf(sourceId);
    expect(after.map((c) => c.text)).toEqual(['A short replacement text.']);
    expect(after[0]!.embedding).not.toBeNull();
    expect(await sourceRow(sourceId)).toMatchObject({ status: 'embedded' });
  });

  test('a status row whose source is gone is removed; a background document still being extracted is left pending', async () => {
    const { itemId, sourceId } = await addEvidence('Soon deleted.');
    await db.deleteFrom('evidence_items').where('id', '=', itemId).execute();
    const waiting = await addBackgroundDoc(null, { extraction_status: 'pending' });

    const report = await sweep();
    expect(report).toMatchObject({ removed: 1, skipped: 1, embedded: 0, failed: 0, remaining: 1 });
    expect(await db.selectFrom('embedding_sources').select('id').where('id', '=', sourceId).executeTakeFirst()).toBeUndefined();
    expect(await sourceRow(waiting.sourceId)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  test("a near-duplicate is never sent to the model: it takes its representative's vector", async () => {
    const first = await writeEvidence('The director approved the Harlow invoice on 4 March.');
    const second = await writeEvidence('The director approved the Harlow invoice on 4 March!');
    const [representative] = await chunksOf(first.sourceId);
    await db
      .updateTable('text_chunks')
      .set({ duplicate_of: representative!.id })
      .where('embedding_source_id', '=', second.sourceId)
      .execute();
    const { embedder, requests } = fakeEmbedder();

    expect(await sweep({ embedder })).toMatchObject({ embedded: 2, chunks: 2 });
    expect(requests.flat()).toEqual([representative!.text]);
    const [duplicate] = await chunksOf(second.sourceId);
    expect(duplicate).toMatchObject({ embedding: (await chunksOf(first.sourceId))[0]!.embedding, embedding_model: MODEL });
    expect(await sourceRow(second.sourceId)).toMatchObject({ status: 'embedded' });
  });
});

// ---- failures --------------------------------------------------------------------------------

describe('failures', () => {
  test('a chunk the model refuses: its source ends in error with the message at maxAttempts, is not claimed again, the rest is embedded', async () => {
    const bad = await writeEvidence(`${paragraphs('clean', 12)}\n\nThis text is POISON for the model.`);
    const { embedder, requests } = poisoned();
    const refusedRequests = () => requests.filter((texts) => texts.length === 1 && texts[0]!.includes('POISON')).length;

    for (let sweepNo = 1; sweepNo <= 3; sweepNo++) {
      const good = await writeEvidence(`Fresh evidence number ${sweepNo} about the vendor.`);
      if (sweepNo > 1) await retryTimeComes();
      const report = await sweep({ embedder, maxAttempts: 3 });
      // the refusal does not stop the run: the other source is embedded in the same run
      expect(report).toMatchObject({ embedded: 1, failed: 1, gave_up: sweepNo === 3 ? 1 : 0, errors_given_up: sweepNo === 3 ? 1 : 0 });
      expect(report.remaining).toBe(sweepNo === 3 ? 0 : 1);
      expect(await sourceRow(bad.sourceId)).toMatchObject({
        status: 'error',
        attempts: sweepNo,
        error_message: 'The AI service refused the request: ValidationException: input contains forbidden content',
      });
      expect(await sourceRow(good.sourceId)).toMatchObject({ status: 'embedded' });
      expect(refusedRequests()).toBe(sweepNo);
    }
    // the chunks of the source the model did not refuse are embedded and searchable
    const chunks = await chunksOf(bad.sourceId);
    expect(chunks.filter((c) => c.embedding === null).map((c) => c.text)).toEqual([expect.stringContaining('POISON')]);
    expect(chunks.filter((c) => c.embedding !== null).length).toBe(chunks.length - 1);

    // given up: not claimed again, even once its retry time has come
    await retryTimeComes();
    const after = await sweep({ embedder, maxAttempts: 3 });
    expect(after).toMatchObject({ embedded: 0, failed: 0, errors_given_up: 1, remaining: 0 });
    expect(refusedRequests()).toBe(3);

    // its text written again (an investigator fixes it) makes it eligible again
    await rewrite(bad.itemId, 'Now clean.');
    expect(await sweep({ embedder, maxAttempts: 3 })).toMatchObject({ embedded: 1, errors_given_up: 0 });
  });

  test('a refused chunk is not tried again before its retry time', async () => {
    const bad = await writeEvidence('POISON once.');
    const { embedder, requests } = poisoned();
    expect(await sweep({ embedder })).toMatchObject({ failed: 1, remaining: 1 });
    expect(await sweep({ embedder })).toMatchObject({ failed: 0, remaining: 1 });
    expect(requests).toHaveLength(1);
    expect(await sourceRow(bad.sourceId)).toMatchObject({ status: 'error', attempts: 1 });
    const [chunk] = await chunksOf(bad.sourceId);
    expect(new Date(chunk!.embed_lease_until!).getTime()).toBeGreaterThan(Date.now() + 30_000); // deferred a minute
  });

  test('a vector of the wrong size is the model’s configuration: the work stops and no source is blamed; a failed extraction is an error', async () => {
    const short = await addEvidence('Any text.');
    const unreadable = await addBackgroundDoc(null, { extraction_status: 'error', extraction_error: 'PDF is encrypted' });
    const report = await sweep({ embedder: { model: MODEL, embed: async (texts) => texts.map(() => [0.1, 0.2, 0.3]) } });
    expect(report).toMatchObject({ stopped_by: 'ai_unavailable', embedded: 0, failed: 1 });
    expect(await sourceRow(short.sourceId)).toMatchObject({ status: 'pending', attempts: 0, error_message: null });
    expect((await chunksOf(short.sourceId)).map((c) => [c.embedding, c.embed_lease_until])).toEqual([[null, null]]);
    expect(await sourceRow(unreadable.sourceId)).toMatchObject({
      status: 'error',
      attempts: 1,
      error_message: 'Text extraction failed: PDF is encrypted',
    });
  });

  test('when the AI service itself is unavailable the work stops at once, blaming no source, its claim given back', async () => {
    const a = await writeEvidence('First source.');
    const b = await writeEvidence('Second source.');
    let calls = 0;
    const throttled: Embedder = {
      model: MODEL,
      embed: async () => {
        calls++;
        throw Object.assign(new Error('Too many requests, please wait before trying again.'), { name: 'ThrottlingException' });
      },
    };
    const report = await sweep({ embedder: throttled });
    expect(report).toMatchObject({ failed: 0, embedded: 0, stopped_by: 'ai_unavailable', remaining: 2 });
    expect(calls).toBe(1);
    for (const source of [a, b]) {
      expect(await sourceRow(source.sourceId)).toMatchObject({ status: 'pending', attempts: 0, error_message: null });
      expect((await chunksOf(source.sourceId)).every((c) => c.embed_lease_until === null)).toBe(true);
    }
    expect(await sweep()).toMatchObject({ embedded: 2 });
  });
});

// ---- the 24-hour figure ----------------------------------------------------------------------

describe('pendingOver24hAfterSweep', () => {
  test('counts sources older than 24 h that are still not embedded after the sweep; embedded and younger ones do not count', async () => {
    const old = new Date(Date.now() - 25 * HOUR);
    await addEvidence('Old but embeddable.', { created_at: old });
    const oldFailing = await addEvidence('Old and POISON.', { created_at: old });
    const oldGivenUp = await addEvidence('Old, gave up long ago.', {
      created_at: old,
      status: 'error',
      attempts: 5,
      error_message: 'gone',
    });
    const oldWaiting = await addBackgroundDoc(null, { extraction_status: 'pending' }, { created_at: old });
    await addEvidence('Young and POISON.');
    await addEvidence('Old, embedded before.', { created_at: old, status: 'embedded', attempts: 1 });

    const report = await sweep({ embedder: poisoned().embedder });
    expect(report).toMatchObject({ embedded: 1, failed: 2, skipped: 1, pendingOver24hAfterSweep: 3, errors_given_up: 1 });
    const stillOld = [oldFailing.sourceId, oldGivenUp.sourceId, oldWaiting.sourceId];
    expect(
      (await db.selectFrom('embedding_sources').select('status').where('id', 'in', stillOld).execute()).map((r) => r.status).sort(),
    ).toEqual(['error', 'error', 'pending']);
  });

  test('with a simulated clock: sources created now count once the sweep ends more than 24 h later', async () => {
    await addEvidence('POISON as well.');
    await addEvidence('Embeddable.');
    const { embedder } = poisoned();
    const later = new Date(Date.now() + 25 * HOUR);
    expect(await sweep({ embedder, now: () => later })).toMatchObject({ embedded: 1, failed: 1, pendingOver24hAfterSweep: 1 });
    expect(await sweep({ embedder, now: () => new Date() })).toMatchObject({ pendingOver24hAfterSweep: 0 });
    expect(await sweep({ embedder, now: () => new Date(Date.now() + 23 * HOUR) })).toMatchObject({ pendingOver24hAfterSweep: 0 });
  });

  test('0 when everything is embedded', async () => {
    await addEvidence('One.', { created_at: new Date(Date.now() - 48 * HOUR) });
    await addAttachment((await addEvidence('Two.', { created_at: new Date(Date.now() - 30 * HOUR) })).itemId, 'Three.');
    expect(await sweep()).toMatchObject({ embedded: 3, pendingOver24hAfterSweep: 0, remaining: 0 });
  });
});

// ---- bounds ----------------------------------------------------------------------------------

describe('bounds', () => {
  test('maxRequests: a run makes at most that many model requests, oldest work first; the rest stays for the next', async () => {
    const oldest = await writeEvidence(paragraphs('oldest', 700));
    await sql`update text_chunks set created_at = now() - interval '1 hour' where embedding_source_id = ${oldest.sourceId}`.execute(db);
    const newest = await writeEvidence(paragraphs('newest', 60));
    const total = (await chunksOf(oldest.sourceId)).length;
    expect(total).toBeGreaterThan(96);
    const { embedder, requests } = fakeEmbedder();
    const report = await sweep({ embedder, maxRequests: 1 });
    expect(report).toMatchObject({ stopped_by: 'batch_limit', chunks: 96, remaining: 2 });
    expect(requests).toHaveLength(1);
    expect((await chunksOf(oldest.sourceId)).filter((c) => c.embedding !== null)).toHaveLength(96);
    expect((await chunksOf(newest.sourceId)).every((c) => c.embedding === null && c.embed_lease_until === null)).toBe(true);
    expect(await sweep({ embedder })).toMatchObject({ embedded: 2, remaining: 0 });
  });

  test('time budget: a run stops when it is spent; the chunks it had claimed are given back, claimable at once', async () => {
    const long = await writeEvidence(paragraphs('long', 1400));
    const chunks = (await chunksOf(long.sourceId)).length;
    expect(chunks).toBeGreaterThan(2 * 96);
    // each request takes a minute of a clock that moves only then; 90 s of budget
    let t = Date.now();
    const slow: Embedder = {
      model: MODEL,
      embed: async (texts) => {
        t += 60_000;
        return texts.map((text) => embedText(text, 1024));
      },
    };
    const report = await sweep({ embedder: slow, now: () => new Date(t), timeBudgetMs: 90_000 });
    expect(report).toMatchObject({ embedded: 0, chunks: 2 * 96, stopped_by: 'time_budget', remaining: 1 });
    const left = (await chunksOf(long.sourceId)).filter((c) => c.embedding === null);
    expect(left).toHaveLength(chunks - 2 * 96);
    expect(left.every((c) => c.embed_lease_until === null)).toBe(true);
    expect(await sweep()).toMatchObject({ embedded: 1 });
  });

  test('a zero budget sweeps nothing', async () => {
    await addEvidence('Anything.');
    expect(await sweep({ timeBudgetMs: 0 })).toMatchObject({ embedded: 0, remaining: 1, stopped_by: 'time_budget' });
  });
});

// ---- concurrency -----------------------------------------------------------------------------

describe('concurrency', () => {
  test('two overlapping runs never embed the same chunk twice', async () => {
    for (let i = 0; i < 6; i++) await writeEvidence(paragraphs(`concurrent ${i}`, 150));
    const total = Number((await sql<{ n: number }>`select count(*)::int as n from text_chunks`.execute(db)).rows[0]!.n);
    const calls = new Map<string, number>();
    const slow: Embedder = {
      model: MODEL,
      embed: async (texts) => {
        for (const text of texts) calls.set(text, (calls.get(text) ?? 0) + 1);
        await sleep(5);
        return texts.map((text) => embedText(text, 1024));
      },
    };
    // one request's worth a claim, so the two runs' claims interleave
    const [a, b] = await Promise.all([sweep({ embedder: slow, requestsPerClaim: 1 }), sweep({ embedder: slow, requestsPerClaim: 1 })]);
    expect(a.chunks + b.chunks).toBe(total);
    expect(a.chunks).toBeGreaterThan(0);
    expect(b.chunks).toBeGreaterThan(0);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    expect(await statuses()).toEqual(Array(6).fill('embedded'));
  });

  test('chunks claimed by another worker are skipped until that claim is given back', async () => {
    const { sourceId } = await writeEvidence('Held elsewhere.');
    const held = await claimChunks(db, { limit: 96, leaseMs: 60_000, maxAttempts: 5 });
    expect(held?.chunks.map((c) => c.embedding_source_id)).toEqual([sourceId]);
    expect(await sweep()).toMatchObject({ embedded: 0, remaining: 1 });
    await releaseChunks(
      db,
      held!.chunks.map((c) => c.id),
      held!.lease,
    );
    expect(await sweep()).toMatchObject({ embedded: 1 });
  });

  test('a source written again while its chunks are being embedded keeps the new text: the old text is not stored', async () => {
    const { itemId, sourceId } = await writeEvidence('Old text being embedded.');
    const { embedder: inner, requests } = fakeEmbedder();
    let rewritten = false;
    const embedder: Embedder = {
      model: MODEL,
      embed: async (texts) => {
        if (!rewritten) {
          rewritten = true;
          await rewrite(itemId, 'New text.');
        }
        return inner.embed(texts, '');
      },
    };
    expect(await sweep({ embedder })).toMatchObject({ embedded: 1 });
    expect(requests).toEqual([['Old text being embedded.'], ['New text.']]);
    expect((await chunksOf(sourceId)).map((c) => [c.text, c.embedding !== null])).toEqual([['New text.', true]]);
  });
});

// ---- job runs --------------------------------------------------------------------------------

describe('runEmbeddingSweep (job_runs and metric)', () => {
  test('records a succeeded job_runs row holding the report, and publishes the report once', async () => {
    await addEvidence('Something to embed.');
    const published: SweepReport[] = [];
    const run = await runEmbeddingSweep(db, { trigger: 'http', embedder: fakeEmbedder().embedder, publish: (r) => published.push(r) });
    const { job_run_id, ...report } = run;
    const row = await db.selectFrom('job_runs').selectAll().where('id', '=', job_run_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ job: EMBEDDING_SWEEPER_JOB, trigger: 'http', status: 'succeeded', error_message: null });
    expect(row.report).toEqual(report);
    expect(row.finished_at).toBeInstanceOf(Date);
    expect(published).toEqual([report]);
    expect(report.embedded).toBe(1);
  });

  test('a sweep that breaks is recorded as failed with its message, publishes nothing, and throws', async () => {
    const published: SweepReport[] = [];
    await expect(
      runEmbeddingSweep(db, {
        trigger: 'schedule',
        embedder: fakeEmbedder().embedder,
        publish: (r) => published.push(r),
        now: () => {
          throw new Error('clock broke');
        },
      }),
    ).rejects.toThrow('clock broke');
    const row = await db.selectFrom('job_runs').selectAll().where('job', '=', EMBEDDING_SWEEPER_JOB).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ trigger: 'schedule', status: 'failed', error_message: 'clock broke', report: null });
    expect(published).toEqual([]);
  });
});

// ---- the demo seed ---------------------------------------------------------------------------

describe('the demo seed', () => {
  test('every seeded source gets embedded in one sweep, its chunks 96 to a request', async () => {
    await db.deleteFrom('organizations').execute();
    const summary = await seedDemo(db);
    expect(summary).not.toBeNull();
    expect(await statuses()).not.toContain('embedded');
    const { embedder, requests } = fakeEmbedder();
    const report = await sweep({ embedder });
    expect(report).toMatchObject({ embedded: summary!.rows.embedding_sources, failed: 0, remaining: 0, pendingOver24hAfterSweep: 0 });
    expect(new Set(await statuses())).toEqual(new Set(['embedded']));
    // a claim is one investigation's: each investigation's chunks fill requests of 96, the last one partly
    const investigations = summary!.rows.investigations;
    expect(requests.length).toBeLessThanOrEqual(Math.ceil(report.chunks / 96) + investigations);
    expect(requests.every((texts) => texts.length <= 96)).toBe(true);
  });
});
