/**
 * The counts the evidence check reads (migrations 0004 and 0013: evidence, content, attachments and
 * background documents on the investigation, linked evidence on the question) equal a fresh count after
 * a mix of writes: imports, retention deletes (cascading to links and attachments), link churn including
 * links across investigations (which do not count), moved evidence items and questions, background
 * documents included and excluded — sequential, then from concurrent transactions (real concurrency on
 * PostgreSQL, where a deadlock between two writers is retried as an application would; PGlite has one
 * connection and interleaves them).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '#core/db/schema';
import { testEngine, useTestDatabase } from '../support/db';
import { seededRandom } from '../support/random';

const db = useTestDatabase();

type Db = Kysely<Database> | Transaction<Database>;

interface Mismatch {
  id: string;
  kept: unknown;
  fresh: unknown;
}

/** Every kept count next to a fresh one (linked: the definition assess counted before 0013); the rows that differ. */
const mismatches = async (): Promise<Mismatch[]> => {
  const investigations = await sql<{ id: string; kept: string; fresh: string }>`
    select i.id,
      concat_ws(',', i.evidence_count, i.content_evidence_count, i.attachment_count, i.background_document_count, i.background_included_count) as kept,
      concat_ws(',',
        (select count(*) from evidence_items e where e.investigation_id = i.id),
        (select count(*) from evidence_items e where e.investigation_id = i.id and e.content ~ '[^[:space:]]'),
        (select count(*) from attachments a join evidence_items e on e.id = a.evidence_item_id where e.investigation_id = i.id),
        (select count(*) from background_documents b where b.investigation_id = i.id),
        (select count(*) from background_documents b where b.investigation_id = i.id and b.included_for_ai)) as fresh
    from investigations i`.execute(db);
  const questions = await sql<{ id: string; kept: number; fresh: number }>`
    select q.id, q.linked_evidence_count as kept,
      (select count(*)::int from evidence_question_links l join evidence_items e on e.id = l.evidence_item_id
        where l.question_id = q.id and e.investigation_id = q.investigation_id) as fresh
    from questions q`.execute(db);
  return [...investigations.rows, ...questions.rows].filter((r) => r.kept !== r.fresh);
};

const keptTotals = async () =>
  (
    await sql<{ linked: number; evidence: number; background: number }>`
      select (select coalesce(sum(linked_evidence_count), 0)::int from questions) as linked,
             (select coalesce(sum(evidence_count), 0)::int from investigations) as evidence,
             (select coalesce(sum(background_document_count), 0)::int from investigations) as background`.execute(db)
  ).rows[0]!;

let investigationIds: string[] = [];

beforeAll(async () => {
  const org = await db.insertInto('organizations').values({ name: 'Counted' }).returning('id').executeTakeFirstOrThrow();
  investigationIds = (
    await db
      .insertInto('investigations')
      .values([0, 1, 2].map((n) => ({ organization_id: org.id, title: `Investigation ${n}` })))
      .returning('id')
      .execute()
  ).map((r) => r.id);
  await db
    .insertInto('questions')
    .values(investigationIds.flatMap((id) => [0, 1, 2, 3].map((n) => ({ investigation_id: id, text: `Question ${n}`, position: n }))))
    .execute();
});

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

/**
 * One write of the mix, chosen by the generator. `within` keeps it to one investigation, as an import or a
 * retention run is (no link to another investigation's question, no move).
 */
const write = async (tx: Db, next: () => number, within?: string): Promise<void> => {
  const investigation = within ?? pick(next, investigationIds);
  const roll = within ? next() * 0.86 : next();
  if (roll < 0.25) {
    // an import: evidence items (some blank), their attachments and links to the investigation's questions,
    // and a few links to another investigation's question (kept, never counted)
    const items = await tx
      .insertInto('evidence_items')
      .values(
        Array.from({ length: 1 + Math.floor(next() * 8) }, (_, n) => ({
          investigation_id: investigation,
          title: `Imported ${n}`,
          content: next() < 0.3 ? ' \n ' : `Statement ${n}`,
        })),
      )
      .returning('id')
      .execute();
    const attached = items.filter(() => next() < 0.5);
    if (attached.length > 0) {
      await tx
        .insertInto('attachments')
        .values(
          attached.map((item, n) => ({
            evidence_item_id: item.id,
            file_name: `a${n}.txt`,
            content_type: 'text/plain',
            storage_key: `k/${item.id}/${n}`,
          })),
        )
        .execute();
    }
    const questions = await tx.selectFrom('questions').select(['id', 'investigation_id']).execute();
    const links = items.flatMap((item) =>
      questions
        .filter((q) => (q.investigation_id === investigation ? next() < 0.4 : !within && next() < 0.05))
        .map((q) => ({ evidence_item_id: item.id, question_id: q.id })),
    );
    if (links.length > 0) await tx.insertInto('evidence_question_links').values(links).execute();
  } else if (roll < 0.4) {
    // retention: a share of an investigation's evidence goes, its links and attachments with it
    await sql`delete from evidence_items where id in (
      select id from evidence_items where investigation_id = ${investigation} order by md5(id::text || ${String(next())}) limit 3)`.execute(
      tx,
    );
  } else if (roll < 0.55) {
    await sql`delete from evidence_question_links where (evidence_item_id, question_id) in (
      select l.evidence_item_id, l.question_id from evidence_question_links l join questions q on q.id = l.question_id
      where q.investigation_id = ${investigation} order by md5(l.evidence_item_id::text || ${String(next())}) limit 4)`.execute(tx);
  } else if (roll < 0.7) {
    await tx
      .insertInto('background_documents')
      .values({
        investigation_id: investigation,
        title: 'Policy',
        file_name: 'policy.txt',
        content_type: 'text/plain',
        storage_key: `background/${next()}`,
        included_for_ai: next() < 0.6,
      })
      .execute();
  } else if (roll < 0.8) {
    await sql`update background_documents set included_for_ai = not included_for_ai
      where investigation_id = ${investigation} and md5(id::text || ${String(next())}) < '8'`.execute(tx);
  } else if (roll < 0.86) {
    await sql`delete from background_documents where id in (
      select id from background_documents where investigation_id = ${investigation} order by md5(id::text || ${String(next())}) limit 2)`.execute(
      tx,
    );
  } else if (roll < 0.92) {
    // an evidence item moved to another investigation: its links to the old investigation's questions stop counting
    await sql`update evidence_items set investigation_id = ${pick(next, investigationIds)} where id in (
      select id from evidence_items where investigation_id = ${investigation} order by md5(id::text || ${String(next())}) limit 1)`.execute(
      tx,
    );
  } else if (roll < 0.96) {
    await sql`update evidence_items set content = case when content ~ '[^[:space:]]' then '' else 'now text' end where id in (
      select id from evidence_items where investigation_id = ${investigation} order by md5(id::text || ${String(next())}) limit 2)`.execute(
      tx,
    );
  } else {
    // a question moved to another investigation, then back
    const [moved] = await sql<{ id: string }>`select id from questions where investigation_id = ${investigation} limit 1`
      .execute(tx)
      .then((r) => r.rows);
    if (moved) {
      await tx
        .updateTable('questions')
        .set({ investigation_id: pick(next, investigationIds) })
        .where('id', '=', moved.id)
        .execute();
      if (next() < 0.5) await tx.updateTable('questions').set({ investigation_id: investigation }).where('id', '=', moved.id).execute();
    }
  }
};

describe(`assess counts on ${testEngine()}`, () => {
  test('equal a fresh count after a sequential mix of imports, retention deletes, link churn, moves and background changes', async () => {
    const next = seededRandom(17);
    for (let step = 0; step < 120; step++) {
      await write(db, next);
      if (step % 20 === 19) expect(await mismatches()).toEqual([]);
    }
    const totals = await keptTotals();
    expect(totals.linked).toBeGreaterThan(0); // the mix left something to count
    expect(totals.evidence).toBeGreaterThan(0);
  });

  test('equal a fresh count after concurrent transactions of the same mix', async () => {
    let deadlocks = 0;
    // writers that change the same rows (a background document, a link) meet on the counter row in both
    // orders; PostgreSQL finds each such deadlock after deadlock_timeout (1 s), lowered here when allowed
    const { rows } = await sql<{ superuser: boolean }>`select rolsuper as superuser from pg_roles where rolname = current_user`.execute(db);
    const quickDeadlocks = testEngine() === 'postgres' && rows[0]?.superuser === true;
    const worker = async (seed: number) => {
      const next = seededRandom(seed);
      for (let n = 0; n < 12; n++) {
        const writes = 1 + Math.floor(next() * 3);
        // two of the three investigations, so most transactions meet another on the same counter rows
        const investigation = investigationIds[Math.floor(next() * 2)]!;
        for (;;) {
          try {
            await db.transaction().execute(async (tx) => {
              if (quickDeadlocks) await sql`set local deadlock_timeout = '20ms'`.execute(tx);
              for (let w = 0; w < writes; w++) await write(tx, next, investigation);
            });
            break;
          } catch (error) {
            // PostgreSQL rolls one of two deadlocked writers back whole, and the application retries it
            if ((error as { code?: string }).code !== '40P01') throw error;
            deadlocks++;
          }
        }
      }
    };
    await Promise.all([101, 202, 303, 404].map(worker));
    expect(await mismatches()).toEqual([]);
    expect(deadlocks).toBeLessThan(24); // the workers got through
  });

  test('a link across investigations is kept but not counted, and counts once its evidence item moves in', async () => {
    const [a, b] = investigationIds as [string, string];
    const question = await db
      .insertInto('questions')
      .values({ investigation_id: a, text: 'Crossed', position: 9 })
      .returning(['id', 'linked_evidence_count'])
      .executeTakeFirstOrThrow();
    expect(question.linked_evidence_count).toBe(0);
    const item = await db
      .insertInto('evidence_items')
      .values({ investigation_id: b, title: 'Elsewhere', content: 'text' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('evidence_question_links').values({ evidence_item_id: item.id, question_id: question.id }).execute();
    const linked = () => db.selectFrom('questions').select('linked_evidence_count').where('id', '=', question.id).executeTakeFirstOrThrow();
    expect(await linked()).toEqual({ linked_evidence_count: 0 });
    await db.updateTable('evidence_items').set({ investigation_id: a }).where('id', '=', item.id).execute();
    expect(await linked()).toEqual({ linked_evidence_count: 1 });
    await db.deleteFrom('evidence_items').where('id', '=', item.id).execute();
    expect(await linked()).toEqual({ linked_evidence_count: 0 });
    expect(await mismatches()).toEqual([]);
  });

  test("a write that changes no count leaves the investigation's row alone (it would lock it until commit)", async () => {
    const [a] = investigationIds as [string];
    const version = async () =>
      (await sql<{ v: string }>`select xmin::text as v from investigations where id = ${a}`.execute(db)).rows[0]!.v;
    const item = await db
      .insertInto('evidence_items')
      .values({ investigation_id: a, title: 'Uploaded', content: 'text' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const attachment = await db
      .insertInto('attachments')
      .values({
        evidence_item_id: item.id,
        file_name: 'a.pdf',
        content_type: 'application/pdf',
        size_bytes: 10,
        storage_key: `k/${item.id}`,
        extraction_status: 'awaiting_upload',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await version();
    // an upload's life (deadline moved, extracted) and an item's new title: no count changes
    await db.updateTable('attachments').set({ upload_deadline: new Date() }).where('id', '=', attachment.id).execute();
    await db
      .updateTable('attachments')
      .set({ extraction_status: 'extracted', extracted_text: 'words' })
      .where('id', '=', attachment.id)
      .execute();
    await db.updateTable('evidence_items').set({ title: 'Renamed' }).where('id', '=', item.id).execute();
    expect(await version()).toBe(before);
    // a change of count does write it
    await db.updateTable('evidence_items').set({ content: ' ' }).where('id', '=', item.id).execute();
    expect(await version()).not.toBe(before);
    expect(await mismatches()).toEqual([]);
  });
});
