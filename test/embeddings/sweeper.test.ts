/**
 * The sweeper on the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with an injected
 * deterministic `embed` (the Bedrock stand-in's feature hashing, 1024 dimensions).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { SourceType } from '#core/db/schema';
import { chunkText } from '#core/embeddings/chunking';
import { EMBEDDING_SWEEPER_JOB, runEmbeddingSweep } from '#core/embeddings/job';
import { sweepReportSchema, type SweepReport } from '#core/embeddings/report';
import { claimNextSource, enqueueEmbedding, fromVectorLiteral, releaseSource, toVectorLiteral } from '#core/embeddings/sources';
import { sweepEmbeddings, type SweepOptions } from '#core/embeddings/sweeper';
import { seedDemo } from '#core/seed/load';
import { embedText } from '../../lib/twin/standin-text';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();

const HOUR = 3_600_000;
const fakeEmbed = async (text: string): Promise<number[]> => embedText(text, 1024);

/** Sweeps without publishing metrics; `embed` defaults to the fake. */
const sweep = (options: Partial<SweepOptions> = {}): Promise<SweepReport> => sweepEmbeddings(db, { embed: fakeEmbed, ...options });

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

const addAttachment = async (itemId: string, text: string | null, row?: SourceRow) => {
  const a = await db
    .insertInto('attachments')
    .values({
      evidence_item_id: itemId,
      file_name: 'a.txt',
      content_type: 'text/plain',
      storage_key: `k/${randomUUID()}`,
      extracted_text: text,
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

beforeEach(async () => {
  // everything hangs off organizations (cascade); job_runs stands alone
  await db.deleteFrom('organizations').execute();
  await db.deleteFrom('job_runs').execute();
  investigationId = await newInvestigation();
});

// ---- embedding -------------------------------------------------------------------------------

describe('embedding sources', () => {
  test('pending and errored sources of every type get embedded: chunks stored with 1024-dimension vectors', async () => {
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

    const report = await sweep();

    expect(sweepReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({
      embedded: 5,
      failed: 0,
      gave_up: 0,
      skipped: 0,
      removed: 0,
      remaining: 0,
      pendingOver24hAfterSweep: 0,
      stopped_by: 'done',
    });
    expect(report.chunks).toBe(chunkText(content).length + 3);
    for (const id of [evidence.sourceId, attachment.sourceId, excluded.sourceId, empty.sourceId]) {
      expect(await sourceRow(id)).toMatchObject({ status: 'embedded', attempts: 1, error_message: null });
    }
    expect(await sourceRow(retried.sourceId)).toMatchObject({ status: 'embedded', attempts: 3, error_message: null });

    // the chunks: text, order, owner, token estimate, and the vector the model gave for that text
    const stored = await chunksOf(evidence.sourceId);
    expect(stored.map((c) => c.text)).toEqual(chunkText(content).map((c) => c.text));
    expect(stored.map((c) => c.chunk_index)).toEqual(stored.map((_, i) => i));
    expect(
      stored.every((c) => c.evidence_item_id === evidence.itemId && c.background_document_id === null && c.source_type === 'content'),
    ).toBe(true);
    expect(stored[0]!.token_count).toBe(Math.ceil(stored[0]!.text.length / 4));
    const vector = fromVectorLiteral(stored[0]!.embedding!);
    expect(vector).toHaveLength(1024);
    expect(vector[0]).toBeCloseTo(embedText(stored[0]!.text, 1024)[0]!, 5);

    const [att] = await chunksOf(attachment.sourceId);
    expect(att).toMatchObject({ source_type: 'attachment', evidence_item_id: evidence.itemId, background_document_id: null });
    const [doc] = await chunksOf(excluded.sourceId);
    expect(doc).toMatchObject({ source_type: 'background_doc', evidence_item_id: null, background_document_id: excluded.documentId });
    expect(await chunksOf(empty.sourceId)).toEqual([]);
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

  test('a re-queued source gets its chunks replaced, never duplicated', async () => {
    const { itemId, sourceId } = await addEvidence(paragraphs('first', 6));
    await sweep();
    const before = await chunksOf(sourceId);
    expect(before.length).toBeGreaterThan(1);

    await db.updateTable('evidence_items').set({ content: 'A short replacement text.' }).where('id', '=', itemId).execute();
    await enqueueEmbedding(db, { investigation_id: investigationId, source_type: 'content', source_id: itemId });
    expect(await sourceRow(sourceId)).toMatchObject({ status: 'pending', attempts: 0 });
    await sweep();

    const after = await chunksOf(sourceId);
    expect(after.map((c) => c.text)).toEqual(['A short replacement text.']);
    expect(await sourceRow(sourceId)).toMatchObject({ status: 'embedded', attempts: 1 });
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
});

// ---- failures --------------------------------------------------------------------------------

describe('failures', () => {
  const poisoned = async (text: string): Promise<number[]> => {
    if (text.includes('POISON')) throw new Error('ValidationException: input contains forbidden content');
    return fakeEmbed(text);
  };

  test('a source failing every time ends in error with its message after maxAttempts sweeps, and is then no longer picked', async () => {
    const bad = await addEvidence('This text is POISON for the model.');
    const calls: string[] = [];
    const embed = async (text: string) => {
      calls.push(text);
      return poisoned(text);
    };

    for (let sweepNo = 1; sweepNo <= 3; sweepNo++) {
      const good = await addEvidence(`Fresh evidence number ${sweepNo} about the vendor.`);
      const report = await sweep({ embed, maxAttempts: 3 });
      // the failure does not stop the sweep: the other source is embedded in the same run
      expect(report).toMatchObject({ embedded: 1, failed: 1, gave_up: sweepNo === 3 ? 1 : 0, errors_given_up: sweepNo === 3 ? 1 : 0 });
      expect(report.remaining).toBe(sweepNo === 3 ? 0 : 1);
      expect(await sourceRow(bad.sourceId)).toMatchObject({
        status: 'error',
        attempts: sweepNo,
        error_message: 'ValidationException: input contains forbidden content',
      });
      expect(await sourceRow(good.sourceId)).toMatchObject({ status: 'embedded' });
    }
    expect(calls.filter((t) => t.includes('POISON'))).toHaveLength(3);

    const after = await sweep({ embed, maxAttempts: 3 });
    expect(after).toMatchObject({ embedded: 0, failed: 0, errors_given_up: 1, remaining: 0 });
    expect(calls.filter((t) => t.includes('POISON'))).toHaveLength(3); // not tried again
    expect(await sourceRow(bad.sourceId)).toMatchObject({ status: 'error', attempts: 3 });
    expect(await chunksOf(bad.sourceId)).toEqual([]);

    // re-queueing it (an operator, or a text change) makes it eligible again
    await enqueueEmbedding(db, { investigation_id: investigationId, source_type: 'content', source_id: bad.itemId });
    await db.updateTable('evidence_items').set({ content: 'Now clean.' }).where('id', '=', bad.itemId).execute();
    expect(await sweep({ embed, maxAttempts: 3 })).toMatchObject({ embedded: 1, errors_given_up: 0 });
  });

  test('each source is tried at most once per sweep', async () => {
    const bad = await addEvidence('POISON once.');
    const report = await sweep({ embed: poisoned, maxAttempts: 5 });
    expect(report).toMatchObject({ failed: 1, remaining: 1 });
    expect(await sourceRow(bad.sourceId)).toMatchObject({ attempts: 1 });
  });

  test('a failed re-embedding keeps the previous chunks', async () => {
    const { itemId, sourceId } = await addEvidence('Original clean text.');
    await sweep();
    await db.updateTable('evidence_items').set({ content: 'POISON now.' }).where('id', '=', itemId).execute();
    await enqueueEmbedding(db, { investigation_id: investigationId, source_type: 'content', source_id: itemId });
    await sweep({ embed: poisoned });
    expect(await sourceRow(sourceId)).toMatchObject({ status: 'error', attempts: 1 });
    expect((await chunksOf(sourceId)).map((c) => c.text)).toEqual(['Original clean text.']);
  });

  test('a vector of the wrong size, or a failed text extraction, is a failure with a message saying so', async () => {
    const short = await addEvidence('Any text.');
    const unreadable = await addBackgroundDoc(null, { extraction_status: 'error', extraction_error: 'PDF is encrypted' });
    await sweep({ embed: async () => [0.1, 0.2, 0.3] });
    expect(await sourceRow(short.sourceId)).toMatchObject({
      status: 'error',
      error_message: 'The embedding has 3 dimensions; 1024 were expected.',
    });
    expect(await sourceRow(unreadable.sourceId)).toMatchObject({
      status: 'error',
      error_message: 'Text extraction failed: PDF is encrypted',
    });
  });

  test('when the AI service itself is unavailable the sweep stops at once instead of burning every attempt', async () => {
    const a = await addEvidence('First source.', { created_at: new Date(Date.now() - 3 * HOUR) });
    const b = await addEvidence('Second source.', { created_at: new Date(Date.now() - 2 * HOUR) });
    const throttled = async () => {
      throw Object.assign(new Error('Too many requests, please wait before trying again.'), { name: 'ThrottlingException' });
    };
    const report = await sweep({ embed: throttled });
    expect(report).toMatchObject({ failed: 1, embedded: 0, stopped_by: 'ai_unavailable', remaining: 2 });
    expect(await sourceRow(a.sourceId)).toMatchObject({
      status: 'error',
      attempts: 1,
      error_message: 'Too many requests, please wait before trying again.',
    });
    expect(await sourceRow(b.sourceId)).toMatchObject({ status: 'pending', attempts: 0 });
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

    const embed = async (text: string) => {
      if (text.includes('POISON')) throw new Error('nope');
      return fakeEmbed(text);
    };
    const report = await sweep({ embed });
    expect(report).toMatchObject({ embedded: 1, failed: 2, skipped: 1, pendingOver24hAfterSweep: 3, errors_given_up: 1 });
    const stillOld = [oldFailing.sourceId, oldGivenUp.sourceId, oldWaiting.sourceId];
    expect(
      (await db.selectFrom('embedding_sources').select('status').where('id', 'in', stillOld).execute()).map((r) => r.status).sort(),
    ).toEqual(['error', 'error', 'pending']);
  });

  test('with a simulated clock: sources created now count once the sweep ends more than 24 h later', async () => {
    await addEvidence('POISON as well.');
    await addEvidence('Embeddable.');
    const embed = async (text: string) => {
      if (text.includes('POISON')) throw new Error('nope');
      return fakeEmbed(text);
    };
    const later = new Date(Date.now() + 25 * HOUR);
    expect(await sweep({ embed, now: () => later })).toMatchObject({ embedded: 1, failed: 1, pendingOver24hAfterSweep: 1 });
    expect(await sweep({ embed, now: () => new Date() })).toMatchObject({ failed: 1, pendingOver24hAfterSweep: 0 });
    expect(await sweep({ embed, now: () => new Date(Date.now() + 23 * HOUR) })).toMatchObject({ pendingOver24hAfterSweep: 0 });
  });

  test('0 when everything is embedded', async () => {
    await addEvidence('One.', { created_at: new Date(Date.now() - 48 * HOUR) });
    await addAttachment((await addEvidence('Two.', { created_at: new Date(Date.now() - 30 * HOUR) })).itemId, 'Three.');
    expect(await sweep()).toMatchObject({ embedded: 3, pendingOver24hAfterSweep: 0, remaining: 0 });
  });
});

// ---- bounds ----------------------------------------------------------------------------------

describe('bounds', () => {
  test('batchLimit: a sweep handles at most that many sources, oldest first; the rest stay for the next', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++)
      ids.push((await addEvidence(`Source ${i}.`, { created_at: new Date(Date.now() - (10 - i) * HOUR) })).sourceId);
    const report = await sweep({ batchLimit: 2 });
    expect(report).toMatchObject({ embedded: 2, remaining: 3, stopped_by: 'batch_limit' });
    const embedded = await db.selectFrom('embedding_sources').select('id').where('status', '=', 'embedded').execute();
    expect(embedded.map((r) => r.id).sort()).toEqual(ids.slice(0, 2).sort());
  });

  test('pending sources go before retryable errors', async () => {
    const error = await addEvidence('Errored earlier.', { status: 'error', attempts: 1, created_at: new Date(Date.now() - 10 * HOUR) });
    const pending = await addEvidence('Pending, younger.');
    await sweep({ batchLimit: 1 });
    expect(await sourceRow(pending.sourceId)).toMatchObject({ status: 'embedded' });
    expect(await sourceRow(error.sourceId)).toMatchObject({ status: 'error' });
  });

  test('time budget: a sweep stops when it is spent; a source interrupted mid-way is given back untouched', async () => {
    const long = await addEvidence(paragraphs('long', 12));
    const next = await addEvidence('Never reached.', { created_at: new Date(Date.now() + HOUR) });
    expect(chunkText(paragraphs('long', 12)).length).toBeGreaterThan(3);
    // a clock that moves 1 s each time it is read; 5 s of budget
    let t = Date.now();
    const now = () => new Date((t += 1000));
    const report = await sweep({ now, timeBudgetMs: 5000 });
    expect(report).toMatchObject({ embedded: 0, skipped: 1, stopped_by: 'time_budget', remaining: 2 });
    expect(await sourceRow(long.sourceId)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await sourceRow(next.sourceId)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await chunksOf(long.sourceId)).toEqual([]);
    // and it is claimable again right away
    expect(await sweep()).toMatchObject({ embedded: 2 });
  });

  test('a zero budget sweeps nothing', async () => {
    await addEvidence('Anything.');
    expect(await sweep({ timeBudgetMs: 0 })).toMatchObject({ embedded: 0, remaining: 1, stopped_by: 'time_budget' });
  });
});

// ---- concurrency -----------------------------------------------------------------------------

describe('concurrency', () => {
  test('two overlapping sweeps never embed the same source twice', async () => {
    const texts = Array.from({ length: 12 }, (_, i) => `Concurrent source number ${i} mentions vendor ${i * 7}.`);
    for (const text of texts) await addEvidence(text);
    const calls = new Map<string, number>();
    const slowEmbed = async (text: string) => {
      calls.set(text, (calls.get(text) ?? 0) + 1);
      await sleep(5);
      return fakeEmbed(text);
    };
    const [a, b] = await Promise.all([sweep({ embed: slowEmbed }), sweep({ embed: slowEmbed })]);
    expect(a.embedded + b.embedded).toBe(texts.length);
    expect(a.embedded).toBeGreaterThan(0);
    expect(b.embedded).toBeGreaterThan(0);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    expect(calls.size).toBe(texts.length);
    const rows = await db.selectFrom('embedding_sources').select(['status', 'attempts']).execute();
    expect(rows.every((r) => r.status === 'embedded' && r.attempts === 1)).toBe(true);
    const {
      rows: [dupes],
    } = await sql<{ n: number }>`select count(*)::int as n from (
      select embedding_source_id, chunk_index from text_chunks group by 1, 2 having count(*) > 1) d`.execute(db);
    expect(dupes!.n).toBe(0);
  });

  test('a source claimed by another sweep is skipped until that claim is given back', async () => {
    const { sourceId } = await addEvidence('Held elsewhere.');
    const held = await claimNextSource(db, { maxAttempts: 5, exclude: [] });
    expect(held?.id).toBe(sourceId);
    expect(await sweep()).toMatchObject({ embedded: 0, remaining: 1 });
    await releaseSource(db, held!);
    expect(await sweep()).toMatchObject({ embedded: 1 });
  });

  test('a source re-queued while it is being embedded keeps the new request: the old text is not stored', async () => {
    const { itemId, sourceId } = await addEvidence('Old text being embedded.');
    const embed = async (text: string) => {
      await db.updateTable('evidence_items').set({ content: 'New text.' }).where('id', '=', itemId).execute();
      await enqueueEmbedding(db, { investigation_id: investigationId, source_type: 'content', source_id: itemId });
      return fakeEmbed(text);
    };
    expect(await sweep({ embed })).toMatchObject({ embedded: 0, skipped: 1 });
    expect(await sourceRow(sourceId)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await chunksOf(sourceId)).toEqual([]);
    await sweep();
    expect((await chunksOf(sourceId)).map((c) => c.text)).toEqual(['New text.']);
  });
});

// ---- job runs --------------------------------------------------------------------------------

describe('runEmbeddingSweep (job_runs and metric)', () => {
  test('records a succeeded job_runs row holding the report, and publishes the report once', async () => {
    await addEvidence('Something to embed.');
    const published: SweepReport[] = [];
    const run = await runEmbeddingSweep(db, { trigger: 'http', embed: fakeEmbed, publish: (r) => published.push(r) });
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
        embed: fakeEmbed,
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
  test('every seeded source gets embedded in one sweep', async () => {
    await db.deleteFrom('organizations').execute();
    const summary = await seedDemo(db);
    expect(summary).not.toBeNull();
    expect(await statuses()).not.toContain('embedded');
    const report = await sweep();
    expect(report).toMatchObject({ embedded: summary!.rows.embedding_sources, failed: 0, remaining: 0, pendingOver24hAfterSweep: 0 });
    expect(new Set(await statuses())).toEqual(new Set(['embedded']));
  });
});
