/**
 * Loads a seed file (format.ts) into the database: all of it or none of it.
 *
 * Order of work:
 * 1. validate the whole file (SeedValidationError names every bad field by its JSON path);
 * 2. look for conflicts with what the database already holds (SeedConflictError): an organization or
 *    investigation whose explicit id exists, an organization whose name exists, a user whose email or
 *    identity-provider subject exists. So loading the same file twice never duplicates anything;
 * 3. generate every id up front (crypto.randomUUID), so the storage keys are known, and upload the
 *    attachment and background-document texts to storage. A failed upload stops here, before the
 *    database is touched (objects uploaded before it stay in storage, unreferenced and harmless);
 * 4. write every row in ONE transaction, and in it each text (an evidence item's content, an attachment's or a
 *    background document's text) as unembedded chunks with its pending embedding_sources row
 *    (embeddings/chunk-store.ts): the embedding worker's work list, which the caller wakes.
 *
 * With `evidence: false` (the operator's load into a deployed stage or the running twin) only the organizations,
 * users, investigations, questions and topics are written here; each investigation's evidence then goes in as a
 * bulk import (seed/import.ts), processed in the background like any other.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, SourceType } from '#core/db/schema';
import type { ObjectStorage } from '#core/storage';
import { writeSourceChunks, type SourceToWrite } from '#core/embeddings/chunk-store';
import { DEMO_SEED } from './demo';
import { formatIssues, formatPath, validateSeed, type SeedFile, type SeedIssue } from './format';
import { ifUsed } from '#core/if-used';

export interface SeedOptions {
  /** where file bodies go (S3 in AWS and the twin); optional, the texts are in the database either way */
  storage?: ObjectStorage;
  /** uploads in flight at once (default 4) */
  uploadConcurrency?: number;
  /** write the evidence items, attachments and background documents too (default true) */
  evidence?: boolean;
}

export const SEED_TABLES = [
  'organizations',
  'users',
  'investigations',
  'questions',
  'topics',
  'evidence_items',
  'evidence_question_links',
  'attachments',
  'background_documents',
  'embedding_sources',
] as const satisfies readonly (keyof Database)[];

export type SeedTable = (typeof SEED_TABLES)[number];

/** The tables written row by row; embedding_sources (with their chunks) follow from the texts. */
const WRITTEN_TABLES = /* @__PURE__ */ ifUsed(() =>
  SEED_TABLES.filter((t): t is Exclude<SeedTable, 'embedding_sources'> => t !== 'embedding_sources'),
);

export interface SeedSummary {
  /** rows written per table */
  rows: Record<SeedTable, number>;
  /** files put to storage (0 when no storage was given) */
  storage_objects: number;
  storage_skipped: boolean;
  organizations: { id: string; name: string }[];
  investigations: { id: string; organization_id: string; title: string }[];
}

export class SeedValidationError extends Error {
  override readonly name = 'SeedValidationError';
  constructor(readonly issues: SeedIssue[]) {
    super(`seed file is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${formatIssues(issues)}`);
  }
}

export interface SeedConflict {
  path: string;
  message: string;
}

export class SeedConflictError extends Error {
  override readonly name = 'SeedConflictError';
  constructor(readonly conflicts: SeedConflict[]) {
    super(`seed data conflicts with the database, nothing was loaded:\n${conflicts.map((c) => `${c.path}: ${c.message}`).join('\n')}`);
  }
}

export class SeedStorageError extends Error {
  override readonly name = 'SeedStorageError';
  constructor(
    readonly key: string,
    cause: unknown,
  ) {
    super(
      `uploading ${key} to storage failed, nothing was written to the database: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** Storage key of an attachment. */
const attachmentKey = (orgId: string, investigationId: string, attachmentId: string, fileName: string): string =>
  `org/${orgId}/inv/${investigationId}/attachments/${attachmentId}/${fileName}`;

/** Storage key of a background document. */
const backgroundDocumentKey = (orgId: string, investigationId: string, documentId: string, fileName: string): string =>
  `org/${orgId}/inv/${investigationId}/background/${documentId}/${fileName}`;

export const loadSeed = async (db: Kysely<Database>, input: unknown, options: SeedOptions = {}): Promise<SeedSummary> => {
  const validation = validateSeed(input);
  if (!validation.ok) throw new SeedValidationError(validation.issues);
  const file = validation.data;

  const conflicts = await findConflicts(db, file);
  if (conflicts.length) throw new SeedConflictError(conflicts);

  const plan = planRows(file, options.evidence ?? true);

  if (options.storage) await upload(options.storage, plan.uploads, options.uploadConcurrency ?? 4);

  try {
    await db.transaction().execute(async (trx) => {
      // Checked again inside the transaction: another loader may have written in the meantime.
      const late = await findConflicts(trx, file);
      if (late.length) throw new SeedConflictError(late);
      await writeRows(trx, plan.rows);
      for (const { source, text } of plan.texts) await writeSourceChunks(trx, source, text);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new SeedConflictError([{ path: '(file)', message: `a row already exists: ${(error as Error).message}` }]);
    }
    throw error;
  }

  return {
    rows: {
      ...(Object.fromEntries(WRITTEN_TABLES.map((t) => [t, plan.rows[t].length])) as Record<(typeof WRITTEN_TABLES)[number], number>),
      embedding_sources: plan.texts.length,
    },
    storage_objects: options.storage ? plan.uploads.length : 0,
    storage_skipped: !options.storage,
    organizations: plan.rows.organizations.map(({ id, name }) => ({ id, name })),
    investigations: plan.rows.investigations.map(({ id, organization_id, title }) => ({ id, organization_id, title })),
  };
};

/** Whether the database holds any organization (the twin seeds the demo only into an empty one). */
export const isSeeded = async (db: Kysely<Database>): Promise<boolean> => {
  const row = await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
};

/**
 * Loads the demo data (demo.json) when the database holds no organization yet; returns its summary,
 * or null when the database was already seeded and nothing was done.
 */
export const seedDemo = async (db: Kysely<Database>, options: SeedOptions = {}): Promise<SeedSummary | null> => {
  if (await isSeeded(db)) return null;
  return loadSeed(db, DEMO_SEED, options);
};

// ---------------------------------------------------------------------------------------------------

type Executor = Kysely<Database> | Transaction<Database>;

const findConflicts = async (db: Executor, file: SeedFile): Promise<SeedConflict[]> => {
  const conflicts: SeedConflict[] = [];
  const orgIds = new Map<string, string>();
  const orgNames = new Map<string, string>();
  const invIds = new Map<string, string>();
  const emails = new Map<string, string>();
  const subjects = new Map<string, string>();
  (file.operators ?? []).forEach((operator, p) => {
    emails.set(operator.email, `operators[${p}].email`);
    subjects.set(operator.idp_subject, `operators[${p}].idp_subject`);
  });
  file.organizations.forEach((org, o) => {
    const path = formatPath(['organizations', o]);
    if (org.id) orgIds.set(org.id, `${path}.id`);
    orgNames.set(org.name.toLowerCase(), `${path}.name`);
    org.users.forEach((user, u) => {
      emails.set(user.email, `${path}.users[${u}].email`);
      subjects.set(user.idp_subject, `${path}.users[${u}].idp_subject`);
    });
    org.investigations.forEach((inv, i) => {
      if (inv.id) invIds.set(inv.id, `${path}.investigations[${i}].id`);
    });
  });

  // One query at a time: inside a transaction they share one connection anyway.
  const existingOrgs = await db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where((eb) =>
      eb.or([...(orgIds.size ? [eb('id', 'in', [...orgIds.keys()])] : []), eb(sql<string>`lower(name)`, 'in', [...orgNames.keys()])]),
    )
    .execute();
  const existingInvestigations = invIds.size
    ? await db
        .selectFrom('investigations')
        .select(['id', 'title'])
        .where('id', 'in', [...invIds.keys()])
        .execute()
    : [];
  const existingUsers = emails.size
    ? await db
        .selectFrom('users')
        .select(['email', 'idp_subject'])
        .where((eb) => eb.or([eb(sql<string>`lower(email)`, 'in', [...emails.keys()]), eb('idp_subject', 'in', [...subjects.keys()])]))
        .execute()
    : [];

  for (const org of existingOrgs) {
    const byId = orgIds.get(org.id);
    if (byId) conflicts.push({ path: byId, message: `organization ${org.id} already exists ("${org.name}")` });
    const byName = orgNames.get(org.name.toLowerCase());
    if (byName && !byId) conflicts.push({ path: byName, message: `an organization named "${org.name}" already exists (id ${org.id})` });
  }
  for (const inv of existingInvestigations) {
    conflicts.push({ path: invIds.get(inv.id)!, message: `investigation ${inv.id} already exists ("${inv.title}")` });
  }
  for (const user of existingUsers) {
    const byEmail = emails.get(user.email.toLowerCase());
    if (byEmail) conflicts.push({ path: byEmail, message: `a user with email ${user.email} already exists` });
    const bySubject = subjects.get(user.idp_subject);
    if (bySubject) conflicts.push({ path: bySubject, message: `a user with idp_subject "${user.idp_subject}" already exists` });
  }
  return conflicts.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
};

interface Upload {
  key: string;
  body: string;
  contentType: string;
}

interface Plan {
  rows: {
    organizations: { id: string; name: string }[];
    users: {
      id: string;
      organization_id: string | null;
      email: string;
      display_name: string;
      role: 'admin' | 'investigator';
      idp_subject: string;
    }[];
    investigations: { id: string; organization_id: string; title: string; description: string }[];
    questions: { id: string; investigation_id: string; text: string; position: number }[];
    topics: { id: string; investigation_id: string; title: string; description: string; position: number }[];
    evidence_items: { id: string; investigation_id: string; title: string; content: string; collected_at: string | null }[];
    evidence_question_links: { evidence_item_id: string; question_id: string }[];
    attachments: {
      id: string;
      evidence_item_id: string;
      file_name: string;
      content_type: string;
      size_bytes: number;
      storage_key: string;
      extracted_text: string;
      /** loaded with its text: extracted (migration 0014's default is for files still to be uploaded) */
      extraction_status: 'extracted';
    }[];
    background_documents: {
      id: string;
      investigation_id: string;
      title: string;
      file_name: string;
      content_type: string;
      size_bytes: number;
      storage_key: string;
      extracted_text: string;
      extraction_status: 'extracted';
      included_for_ai: boolean;
    }[];
  };
  /** every text to chunk, with the source it belongs to */
  texts: { source: SourceToWrite; text: string }[];
  uploads: Upload[];
}

/** Every row with its id, and every upload with its key, before anything is written. */
const planRows = (file: SeedFile, withEvidence: boolean): Plan => {
  const rows: Plan['rows'] = {
    organizations: [],
    users: [],
    investigations: [],
    questions: [],
    topics: [],
    evidence_items: [],
    evidence_question_links: [],
    attachments: [],
    background_documents: [],
  };
  const uploads: Upload[] = [];
  const texts: Plan['texts'] = [];
  const source = (
    investigation_id: string,
    source_type: SourceType,
    source_id: string,
    owner: { evidence?: string; document?: string },
    text: string,
  ) =>
    texts.push({
      source: {
        investigation_id,
        source_type,
        source_id,
        evidence_item_id: owner.evidence ?? null,
        background_document_id: owner.document ?? null,
      },
      text,
    });

  for (const operator of file.operators ?? []) rows.users.push({ id: randomUUID(), organization_id: null, role: 'admin', ...operator });
  for (const org of file.organizations) {
    const orgId = org.id ?? randomUUID();
    rows.organizations.push({ id: orgId, name: org.name });
    for (const user of org.users) rows.users.push({ id: randomUUID(), organization_id: orgId, ...user });

    for (const inv of org.investigations) {
      const invId = inv.id ?? randomUUID();
      rows.investigations.push({ id: invId, organization_id: orgId, title: inv.title, description: inv.description ?? '' });
      const questionIds = new Map<string, string>();
      inv.questions.forEach((q, position) => {
        const id = randomUUID();
        questionIds.set(q.key, id);
        rows.questions.push({ id, investigation_id: invId, text: q.text, position });
      });
      inv.topics.forEach((t, position) =>
        rows.topics.push({ id: randomUUID(), investigation_id: invId, title: t.title, description: t.description ?? '', position }),
      );

      for (const item of withEvidence ? inv.evidence : []) {
        const itemId = randomUUID();
        rows.evidence_items.push({
          id: itemId,
          investigation_id: invId,
          title: item.title,
          content: item.content,
          collected_at: item.collected_at ?? null,
        });
        if (item.content.trim()) source(invId, 'content', itemId, { evidence: itemId }, item.content);
        for (const key of item.linked_questions ?? []) {
          rows.evidence_question_links.push({ evidence_item_id: itemId, question_id: questionIds.get(key)! });
        }
        for (const a of item.attachments ?? []) {
          const id = randomUUID();
          const storage_key = attachmentKey(orgId, invId, id, a.file_name);
          rows.attachments.push({
            id,
            evidence_item_id: itemId,
            file_name: a.file_name,
            content_type: a.content_type,
            size_bytes: Buffer.byteLength(a.text, 'utf8'),
            storage_key,
            extracted_text: a.text,
            extraction_status: 'extracted',
          });
          uploads.push({ key: storage_key, body: a.text, contentType: a.content_type });
          source(invId, 'attachment', id, { evidence: itemId }, a.text);
        }
      }

      for (const d of withEvidence ? (inv.background_documents ?? []) : []) {
        const id = randomUUID();
        const storage_key = backgroundDocumentKey(orgId, invId, id, d.file_name);
        rows.background_documents.push({
          id,
          investigation_id: invId,
          title: d.title,
          file_name: d.file_name,
          content_type: d.content_type,
          size_bytes: Buffer.byteLength(d.text, 'utf8'),
          storage_key,
          extracted_text: d.text,
          extraction_status: 'extracted',
          included_for_ai: d.included_for_ai,
        });
        uploads.push({ key: storage_key, body: d.text, contentType: d.content_type });
        source(invId, 'background_doc', id, { document: id }, d.text);
      }
    }
  }
  return { rows, texts, uploads };
};

const upload = async (storage: ObjectStorage, uploads: Upload[], concurrency: number): Promise<void> => {
  let next = 0;
  let failed: SeedStorageError | undefined;
  const worker = async () => {
    while (!failed && next < uploads.length) {
      const u = uploads[next++]!;
      try {
        await storage.put(u.key, u.body, u.contentType);
      } catch (error) {
        failed ??= new SeedStorageError(u.key, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, uploads.length)) }, worker));
  if (failed) throw failed;
};

/** Rows per insert statement: far below PostgreSQL's 65,535 bind parameters, and small with big texts. */
const BATCH = 200;

const writeRows = async (trx: Transaction<Database>, rows: Plan['rows']): Promise<void> => {
  // Parents before children (foreign keys).
  for (const table of WRITTEN_TABLES) {
    const all = rows[table] as Record<string, unknown>[];
    for (let i = 0; i < all.length; i += BATCH) {
      await trx
        .insertInto(table)
        .values(all.slice(i, i + BATCH) as never)
        .execute();
    }
  }
};

const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
