import { sql, type Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS, DEMO_SEED, DEMO_USERS } from '#core/seed/demo';
import type { SeedFileInput } from '#core/seed/format';
import type { ObjectStorage } from '#core/storage';
import {
  isSeeded,
  loadSeed,
  SEED_TABLES,
  seedDemo,
  SeedConflictError,
  SeedStorageError,
  SeedValidationError,
  type SeedTable,
} from '#core/seed/load';
import { testEngine, useTestDatabase } from '../support/db';

type Counts = Record<SeedTable, number>;

const countRows = async (db: Kysely<Database>): Promise<Counts> => {
  const counts = {} as Counts;
  for (const table of SEED_TABLES) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
    counts[table] = rows[0]!.n;
  }
  return counts;
};

const recordingStorage = () => {
  const puts: { key: string; body: string; contentType: string }[] = [];
  const storage: ObjectStorage = {
    put: async (key, body, contentType) => {
      puts.push({ key, body: String(body), contentType });
    },
  };
  return { storage, puts };
};

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** A small file with no fixed ids, built fresh for each use. */
const smallFile = (suffix: string): SeedFileInput => ({
  organizations: [
    {
      name: `Small Org ${suffix}`,
      users: [{ email: `Lead-${suffix}@small.example`, display_name: 'Lee', role: 'investigator', idp_subject: `small-${suffix}` }],
      investigations: [
        {
          title: 'Small inquiry',
          description: 'About small things.',
          questions: [
            { key: 'a', text: 'Question A?' },
            { key: 'b', text: 'Question B?' },
          ],
          topics: [{ title: 'T1', description: 'first' }, { title: 'T2' }],
          evidence: [
            { title: 'Note', content: 'Something happened.', collected_at: '2024-03-15T09:30:00Z', linked_questions: ['b', 'a'] },
            { title: 'Scan only', content: '  ', attachments: [{ file_name: 'scan é.txt', content_type: 'text/plain', text: 'héllo' }] },
          ],
          background_documents: [
            { title: 'Hidden', file_name: 'h.txt', content_type: 'text/plain', text: 'internal', included_for_ai: false },
          ],
        },
      ],
    },
  ],
});

describe(`seed loader on ${testEngine()}`, () => {
  const db = useTestDatabase();

  describe('the demo data set', () => {
    const { storage, puts } = recordingStorage();

    test('loads into an empty database, uploading every file first', async () => {
      expect(await isSeeded(db)).toBe(false);
      const summary = await seedDemo(db, { storage });
      expect(summary).not.toBeNull();
      expect(await isSeeded(db)).toBe(true);
      expect(summary!.rows).toEqual(await countRows(db));
      expect(summary!.storage_objects).toBe(puts.length);
      expect(summary!.rows.attachments + summary!.rows.background_documents).toBe(puts.length);
      expect(summary!.organizations.map((o) => o.id)).toEqual([DEMO_ORGANIZATION_IDS.northwind, DEMO_ORGANIZATION_IDS.harbor]);
    });

    test('has the required counts per organization and a question with no linked evidence', async () => {
      const perInvestigation = async (investigationId: string) => ({
        evidence: (
          await db
            .selectFrom('evidence_items')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('investigation_id', '=', investigationId)
            .executeTakeFirstOrThrow()
        ).n,
        attachments: (
          await db
            .selectFrom('attachments')
            .innerJoin('evidence_items', 'evidence_items.id', 'attachments.evidence_item_id')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('evidence_items.investigation_id', '=', investigationId)
            .executeTakeFirstOrThrow()
        ).n,
        background: await db
          .selectFrom('background_documents')
          .select(['included_for_ai', 'extraction_status'])
          .where('investigation_id', '=', investigationId)
          .execute(),
        questionLinks: (
          await db
            .selectFrom('questions')
            .leftJoin('evidence_question_links', 'evidence_question_links.question_id', 'questions.id')
            .select(['questions.position', sql<number>`count(evidence_question_links.evidence_item_id)::int`.as('links')])
            .where('questions.investigation_id', '=', investigationId)
            .groupBy(['questions.id', 'questions.position'])
            .orderBy('questions.position')
            .execute()
        ).map((r) => r.links),
      });
      const nw = await perInvestigation(DEMO_INVESTIGATION_IDS.northwind);
      expect(nw.evidence).toBeGreaterThanOrEqual(30);
      expect(nw.attachments).toBeGreaterThanOrEqual(8);
      expect(nw.background.length).toBeGreaterThanOrEqual(4);
      expect(nw.background.filter((d) => !d.included_for_ai)).toHaveLength(1);
      expect(nw.background.every((d) => d.extraction_status === 'extracted')).toBe(true);
      expect(nw.questionLinks).toContain(0);
      expect(nw.questionLinks.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);

      const harbor = await perInvestigation(DEMO_INVESTIGATION_IDS.harbor);
      expect(harbor.evidence).toBe(8);
      expect(harbor.questionLinks).toHaveLength(2);

      const investigations = await db.selectFrom('investigations').select(['id', 'organization_id']).orderBy('organization_id').execute();
      expect(investigations).toEqual([
        { id: DEMO_INVESTIGATION_IDS.northwind, organization_id: DEMO_ORGANIZATION_IDS.northwind },
        { id: DEMO_INVESTIGATION_IDS.harbor, organization_id: DEMO_ORGANIZATION_IDS.harbor },
      ]);
      const users = await db
        .selectFrom('users')
        .select(['email', 'role', 'idp_subject', 'organization_id', 'display_name'])
        .orderBy('email')
        .execute();
      expect(users).toEqual(
        DEMO_USERS.map(({ email, role, idp_subject, organization_id, display_name }) => ({
          email,
          role,
          idp_subject,
          organization_id,
          display_name,
        })).sort((a, b) => a.email.localeCompare(b.email)),
      );
    });

    test('creates one pending embedding source per text source', async () => {
      const sources = await db.selectFrom('embedding_sources').select(['source_type', 'source_id', 'status', 'investigation_id']).execute();
      expect(sources.every((s) => s.status === 'pending')).toBe(true);
      const withContent = await db
        .selectFrom('evidence_items')
        .select(['id', 'investigation_id'])
        .where(sql<boolean>`btrim(content) <> ''`)
        .execute();
      const attachments = await db
        .selectFrom('attachments')
        .innerJoin('evidence_items', 'evidence_items.id', 'attachments.evidence_item_id')
        .select(['attachments.id', 'evidence_items.investigation_id'])
        .execute();
      const docs = await db.selectFrom('background_documents').select(['id', 'investigation_id']).execute();
      const key = (type: string, id: string, inv: string) => `${type}:${id}:${inv}`;
      expect(sources.map((s) => key(s.source_type, s.source_id, s.investigation_id)).sort()).toEqual(
        [
          ...withContent.map((e) => key('content', e.id, e.investigation_id)),
          ...attachments.map((a) => key('attachment', a.id, a.investigation_id)),
          ...docs.map((d) => key('background_doc', d.id, d.investigation_id)),
        ].sort(),
      );
      const allItems = await db.selectFrom('evidence_items').select('id').execute();
      expect(withContent.length).toBeLessThan(allItems.length); // the attachment-only item has no content source
    });

    test('stores each file under its expected key, with its text and byte size', async () => {
      const attachments = await db
        .selectFrom('attachments')
        .innerJoin('evidence_items', 'evidence_items.id', 'attachments.evidence_item_id')
        .innerJoin('investigations', 'investigations.id', 'evidence_items.investigation_id')
        .select([
          'attachments.id',
          'attachments.file_name',
          'attachments.content_type',
          'attachments.storage_key',
          'attachments.extracted_text',
          'attachments.size_bytes',
          'investigations.id as investigation_id',
          'investigations.organization_id',
        ])
        .execute();
      for (const a of attachments) {
        expect(a.storage_key).toBe(`org/${a.organization_id}/inv/${a.investigation_id}/attachments/${a.id}/${a.file_name}`);
        const put = puts.find((p) => p.key === a.storage_key);
        expect(put).toEqual({ key: a.storage_key, body: a.extracted_text, contentType: a.content_type });
        expect(Number(a.size_bytes)).toBe(Buffer.byteLength(a.extracted_text!, 'utf8'));
      }
      const docs = await db
        .selectFrom('background_documents')
        .innerJoin('investigations', 'investigations.id', 'background_documents.investigation_id')
        .select([
          'background_documents.id',
          'file_name',
          'storage_key',
          'extracted_text',
          'investigation_id',
          'investigations.organization_id',
        ])
        .execute();
      for (const d of docs) {
        expect(d.storage_key).toBe(`org/${d.organization_id}/inv/${d.investigation_id}/background/${d.id}/${d.file_name}`);
        expect(puts.find((p) => p.key === d.storage_key)?.body).toBe(d.extracted_text);
      }
      expect(new Set(puts.map((p) => p.key))).toEqual(new Set([...attachments, ...docs].map((r) => r.storage_key)));
      expect(puts.map((p) => p.key)).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^org/${DEMO_ORGANIZATION_IDS.northwind}/inv/${DEMO_INVESTIGATION_IDS.northwind}/attachments/${UUID}/invoice_BIS-1041\\.txt$`,
          ),
        ),
      );
    });

    test('is not loaded twice: seedDemo skips a seeded database, and an explicit re-load conflicts and writes nothing', async () => {
      const before = await countRows(db);
      const again = recordingStorage();
      expect(await seedDemo(db, { storage: again.storage })).toBeNull();
      const error = await loadSeed(db, DEMO_SEED, { storage: again.storage }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SeedConflictError);
      const message = (error as Error).message;
      expect(message).toContain(`organizations[0].id: organization ${DEMO_ORGANIZATION_IDS.northwind} already exists`);
      expect(message).toContain(`organizations[1].investigations[0].id: investigation ${DEMO_INVESTIGATION_IDS.harbor} already exists`);
      expect(message).toContain('operators[0].email: a user with email admin@operators.example already exists');
      expect(again.puts).toEqual([]); // refused before any upload
      expect(await countRows(db)).toEqual(before);
    });
  });

  describe('a file without fixed ids', () => {
    test('loads with generated ids, links, positions and per-type embedding sources', async () => {
      const before = await countRows(db);
      const { storage, puts } = recordingStorage();
      const summary = await loadSeed(db, smallFile('one'), { storage });
      expect(summary.rows).toEqual({
        organizations: 1,
        users: 1,
        investigations: 1,
        questions: 2,
        topics: 2,
        evidence_items: 2,
        evidence_question_links: 2,
        attachments: 1,
        background_documents: 1,
        embedding_sources: 3,
      });
      const after = await countRows(db);
      for (const table of SEED_TABLES) expect(after[table] - before[table]).toBe(summary.rows[table]);

      const [inv] = summary.investigations;
      const user = await db.selectFrom('users').selectAll().where('idp_subject', '=', 'small-one').executeTakeFirstOrThrow();
      expect(user).toMatchObject({ email: 'lead-one@small.example', organization_id: inv!.organization_id, role: 'investigator' });
      const questions = await db
        .selectFrom('questions')
        .select(['id', 'text', 'position'])
        .where('investigation_id', '=', inv!.id)
        .orderBy('position')
        .execute();
      expect(questions.map((q) => [q.text, q.position])).toEqual([
        ['Question A?', 0],
        ['Question B?', 1],
      ]);
      const topics = await db
        .selectFrom('topics')
        .select(['title', 'description', 'position'])
        .where('investigation_id', '=', inv!.id)
        .orderBy('position')
        .execute();
      expect(topics).toEqual([
        { title: 'T1', description: 'first', position: 0 },
        { title: 'T2', description: '', position: 1 },
      ]);
      const note = await db
        .selectFrom('evidence_items')
        .selectAll()
        .where('investigation_id', '=', inv!.id)
        .where('title', '=', 'Note')
        .executeTakeFirstOrThrow();
      expect(new Date(note.collected_at!).toISOString()).toBe('2024-03-15T09:30:00.000Z');
      const links = await db.selectFrom('evidence_question_links').select('question_id').where('evidence_item_id', '=', note.id).execute();
      expect(links.map((l) => l.question_id).sort()).toEqual(questions.map((q) => q.id).sort());
      const sources = await db
        .selectFrom('embedding_sources')
        .select('source_type')
        .where('investigation_id', '=', inv!.id)
        .orderBy('source_type')
        .execute();
      expect(sources.map((s) => s.source_type)).toEqual(['attachment', 'background_doc', 'content']); // blank content: no source
      const attachment = await db.selectFrom('attachments').selectAll().where('storage_key', '=', puts[0]!.key).executeTakeFirstOrThrow();
      expect(Number(attachment.size_bytes)).toBe(6); // 'héllo' is 6 bytes in UTF-8
      expect(puts[0]!.key).toMatch(new RegExp(`^org/${inv!.organization_id}/inv/${inv!.id}/attachments/${attachment.id}/scan é\\.txt$`));
      const hidden = await db
        .selectFrom('background_documents')
        .selectAll()
        .where('investigation_id', '=', inv!.id)
        .executeTakeFirstOrThrow();
      expect(hidden).toMatchObject({ included_for_ai: false, extraction_status: 'extracted', extracted_text: 'internal' });
    });

    test('loading it again conflicts on the organization name and the user, and writes nothing', async () => {
      const before = await countRows(db);
      const file = smallFile('one') as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      file.organizations[0].users[0].email = 'LEAD-ONE@SMALL.EXAMPLE';
      const error = await loadSeed(db, file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SeedConflictError);
      expect((error as SeedConflictError).conflicts.map((c) => c.path)).toEqual([
        'organizations[0].name',
        'organizations[0].users[0].email',
        'organizations[0].users[0].idp_subject',
      ]);
      expect(await countRows(db)).toEqual(before);
    });

    test('loads without storage, recording the keys all the same', async () => {
      const summary = await loadSeed(db, smallFile('two'));
      expect(summary.storage_skipped).toBe(true);
      expect(summary.storage_objects).toBe(0);
      const keys = await db
        .selectFrom('attachments')
        .innerJoin('evidence_items', 'evidence_items.id', 'attachments.evidence_item_id')
        .select('storage_key')
        .where('evidence_items.investigation_id', '=', summary.investigations[0]!.id)
        .execute();
      expect(keys).toHaveLength(1);
    });
  });

  describe('nothing is half-loaded', () => {
    test('an invalid file names every bad field and writes nothing', async () => {
      const before = await countRows(db);
      const { storage, puts } = recordingStorage();
      const file = smallFile('bad') as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      const inv = file.organizations[0].investigations[0];
      delete inv.evidence[1].title;
      inv.evidence[0].linked_questions = ['a', 'zz'];
      inv.topics[0].colour = 'blue';
      const error = await loadSeed(db, file, { storage }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SeedValidationError);
      const message = (error as Error).message;
      expect(message).toContain('organizations[0].investigations[0].evidence[1].title: Required');
      expect(message).toContain('organizations[0].investigations[0].evidence[0].linked_questions[1]: no question with key "zz"');
      expect(message).toContain('organizations[0].investigations[0].topics[0].colour: unknown field');
      expect((error as SeedValidationError).issues).toHaveLength(3);
      expect(puts).toEqual([]);
      expect(await countRows(db)).toEqual(before);
    });

    test('a storage failure stops the load before the database is written', async () => {
      const before = await countRows(db);
      let calls = 0;
      const storage: ObjectStorage = {
        put: async (key) => {
          calls += 1;
          if (key.endsWith('/h.txt')) throw new Error('S3 is down');
        },
      };
      const error = await loadSeed(db, smallFile('storage'), { storage, uploadConcurrency: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SeedStorageError);
      expect((error as Error).message).toMatch(
        /uploading org\/.*\/background\/.*\/h\.txt to storage failed, nothing was written to the database: S3 is down/,
      );
      expect(calls).toBe(2);
      expect(await countRows(db)).toEqual(before);
      expect(await db.selectFrom('organizations').select('id').where('name', '=', 'Small Org storage').execute()).toEqual([]);
    });

    test('a database failure during the write rolls the whole load back', async () => {
      // The last table written refuses rows; everything written before it in the transaction must go too.
      await sql`create function seed_test_refuse() returns trigger language plpgsql as $$
        begin raise exception 'refused by test trigger'; end $$`.execute(db);
      await sql`create trigger seed_test_refuse before insert on embedding_sources for each row execute function seed_test_refuse()`.execute(
        db,
      );
      try {
        const before = await countRows(db);
        await expect(loadSeed(db, smallFile('rollback'))).rejects.toThrow('refused by test trigger');
        expect(await countRows(db)).toEqual(before);
      } finally {
        await sql`drop trigger seed_test_refuse on embedding_sources`.execute(db);
        await sql`drop function seed_test_refuse()`.execute(db);
      }
      await expect(loadSeed(db, smallFile('rollback'))).resolves.toMatchObject({ rows: { organizations: 1 } });
    });
  });
});
