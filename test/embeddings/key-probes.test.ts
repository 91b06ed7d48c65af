/**
 * The LSH key probes (grouping near-duplicates as chunks are written, placing stored vectors) filter a key's chunks to
 * the investigation after the probe, never through the investigation's index. Where the statistics took an
 * investigation for small (a new one after a large import, or PGlite's, never analyzed), the planner ANDed each key's
 * bitmap with the investigation index's: every chunk of the investigation read for each of a passage's 16 keys, and
 * placing 100,000 slowed from 300 a second to 3 on PGlite (docs/retrieval.md). That plan needs a large table; here the
 * planner is left no way in but the investigation's index (the key index dropped, the columns' statistics gone) and
 * the index's scan count must not move. PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { sql } from 'kysely';
import { writeSourceChunks } from '#core/embeddings/chunk-store';
import { placeStoredVectors } from '#core/embeddings/chunk-claims';
import { useTestDatabase } from '../support/db';
import { addChunks } from '../support/fixtures';
import { versionsCorpus } from '../support/versions-corpus';

const db = useTestDatabase();
let investigationId = '';
const corpus = versionsCorpus({ texts: 2, versions: 60, replaced: 0.05, unrelated: 40, queries: 1 });

/** scans of the investigation's index so far (the backend's own counts flushed first) */
const investigationIndexScans = async () => {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  await sql`select 1`.execute(db); // the flush happens at this transaction's end
  const { rows } = await sql<{ scans: string }>`
    select idx_scan as scans from pg_stat_user_indexes where indexrelname = 'text_chunks_investigation_idx'`.execute(db);
  return Number(rows[0]!.scans);
};

beforeAll(async () => {
  const org = (await db.insertInto('organizations').values({ name: 'Probe Org' }).returning('id').executeTakeFirstOrThrow()).id;
  investigationId = (
    await db.insertInto('investigations').values({ organization_id: org, title: 'Probes' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  await addChunks(db, investigationId, corpus.chunks, { placed: false });
  await sql`analyze text_chunks`.execute(db);
  await sql`delete from pg_statistic where starelid = 'text_chunks'::regclass`.execute(db); // the investigation looks small
  await sql`drop index text_chunks_lsh_idx`.execute(db);
}, 60_000);

test('placing stored vectors and grouping written chunks never read the investigation index', async () => {
  const before = await investigationIndexScans();
  expect(await placeStoredVectors(db, 30)).toBe(30);
  const item = await db
    .insertInto('evidence_items')
    .values({ investigation_id: investigationId, title: 'A copy', content: corpus.chunks[0]!.text })
    .returning('id')
    .executeTakeFirstOrThrow();
  const written = await db.transaction().execute((trx) =>
    writeSourceChunks(
      trx,
      {
        investigation_id: investigationId,
        source_type: 'content',
        source_id: item.id,
        evidence_item_id: item.id,
        background_document_id: null,
      },
      corpus.chunks[0]!.text,
    ),
  );
  expect(written.duplicates).toBe(written.chunks); // found its group through the keys
  expect(await investigationIndexScans()).toBe(before);
});
