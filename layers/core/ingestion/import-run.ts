/**
 * Running a bulk import, a part at a time (the import worker): the file is read from where the last part stopped,
 * lines are written a batch per transaction — the items with their chunks, the problems of the lines that have any,
 * and the import's progress together — so a worker that dies loses only the batch it was writing, and the next
 * delivery resumes after the last batch that committed: every line is written once. One worker holds an import at a
 * time (a lease); before its time budget runs out it lets go and sends itself the rest (a continuation message).
 * The embedding worker is woken after every batch, so embedding runs alongside the import.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '#core/db/schema';
import { writeSourceChunks } from '#core/embeddings/chunk-store';
import { logger } from '#core/logger';
import { parseNdjsonLine, parseSeedImport, type ImportEntry, type LineProblem, type ParsedLine, type SeedImport } from './import-lines';
import { attachmentKey, backgroundDocumentKey } from './uploads';

type ImportRow = Selectable<Database['imports']>;

/** One line of an ndjson file, as read from storage: its text (without the newline) and its length in bytes (with it). */
export interface RawLine {
  text: string;
  bytes: number;
}

export interface ImportFiles {
  /** the lines of an object from byte `from` on (`from` is always a line start) */
  lines: (key: string, from: number) => AsyncIterable<RawLine>;
  /** a whole object as text (a seed-format file is one JSON document) */
  text: (key: string) => Promise<string>;
  /** writes an attachment's or background document's inline text as its file, so the viewer opens it */
  put: (key: string, body: string, contentType: string) => Promise<void>;
}

export interface ImportDeps {
  db: Kysely<Database>;
  files: ImportFiles;
  /** wakes the embedding worker; `doneWriting` at the import's end (its last partial request need not wait for more) */
  wake: (investigationId: string, options?: { doneWriting?: boolean }) => Promise<unknown>;
  /** sends the import's next part to the imports queue */
  continueLater: (importId: string) => Promise<void>;
  now?: () => number;
  /** how long this run may take before it hands the rest on (default 200 s of the worker's 300) */
  budgetMs?: number;
  /** lines per transaction (default IMPORT_BATCH_LINES) */
  batchLines?: number;
}

export type ImportRunOutcome = 'complete' | 'continued' | 'failed' | 'held' | 'nothing_to_do';

const IMPORT_KEY = /^imports\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Pure: the import a storage key names (uploads.ts importKey), or undefined. */
export const importOfKey = (key: string): string | undefined => IMPORT_KEY.exec(key)?.[1]?.toLowerCase();

/**
 * Lines written per transaction: few enough that a batch holds the database for a moment only (PGlite has one session,
 * so an import's transaction would hold up every request meanwhile), many enough that progress costs little.
 */
const IMPORT_BATCH_LINES = 25;

/** A run's hold on an import; longer than a run's budget, so a live run never loses it. */
const LEASE_MS = 5 * 60_000;
/** The most problems kept per import (lines_failed counts them all). */
const ERRORS_KEPT = 1_000;

const claim = (db: Kysely<Database>, importId: string) =>
  db
    .updateTable('imports')
    .set({
      status: 'processing',
      claimed_until: sql`now() + ${LEASE_MS} * interval '1 millisecond'`,
      updated_at: sql`now()`,
    })
    .where('id', '=', importId)
    .where('status', 'in', ['awaiting_upload', 'queued', 'processing'])
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', sql<Date>`now()`)]))
    .returningAll()
    .executeTakeFirst();

const finish = (db: Kysely<Database>, importId: string, status: 'complete' | 'failed', error?: string) =>
  db
    .updateTable('imports')
    .set({
      status,
      error_message: error ?? null,
      // a complete import has read every line (blank ones at the end too)
      ...(status === 'complete' && { lines_done: sql`greatest(lines_done, coalesce(lines_total, 0))` }),
      claimed_until: null,
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', importId)
    .execute();

/** Pure: the problems a line's question links have against the questions the investigation holds. */
export const linkProblems = (entry: ImportEntry, known: ReadonlySet<string>): LineProblem[] =>
  entry.kind === 'evidence' && 'ids' in entry.questions
    ? entry.questions.ids.flatMap((id, i) =>
        known.has(id) ? [] : [{ field: `linked_question_ids.${i}`, message: 'is not a question of this investigation' }],
      )
    : [];

interface Context {
  row: ImportRow;
  organizationId: string;
  createdBy: string | null;
  /** the investigation's question ids */
  questions: Set<string>;
  /** a seed-format file's question keys and the investigation's question each names */
  questionKeys: Map<string, string>;
}

interface NumberedLine {
  line: number;
  parsed: ParsedLine;
  /** bytes of the file read through this line */
  bytes: number;
}

/** The writes of one entry, in the batch's transaction; its files are in storage already. */
const writeEntry = async (trx: Kysely<Database>, context: Context, line: number, entry: ImportEntry, ids: string[]) => {
  const investigationId = context.row.investigation_id;
  if (entry.kind === 'background_document') {
    const [documentId] = ids as [string];
    await trx
      .insertInto('background_documents')
      .values({
        id: documentId,
        investigation_id: investigationId,
        title: entry.title,
        file_name: entry.file_name,
        content_type: entry.content_type,
        size_bytes: Buffer.byteLength(entry.text),
        storage_key: backgroundDocumentKey({ organizationId: context.organizationId, investigationId, documentId }, entry.file_name),
        extracted_text: entry.text,
        extraction_status: 'extracted',
        included_for_ai: entry.included_for_ai,
        uploaded_at: sql`now()`,
        created_by: context.createdBy,
      })
      .execute();
    await writeSourceChunks(
      trx,
      {
        investigation_id: investigationId,
        source_type: 'background_doc',
        source_id: documentId,
        evidence_item_id: null,
        background_document_id: documentId,
      },
      entry.text,
    );
    return;
  }
  const [evidenceId, ...attachmentIds] = ids as [string, ...string[]];
  const inserted = await trx
    .insertInto('evidence_items')
    .values({
      id: evidenceId,
      investigation_id: investigationId,
      title: entry.title,
      content: entry.content,
      collected_at: entry.collected_at,
      created_by: context.createdBy,
      idempotency_key: `import:${context.row.id}:${line}`,
    })
    .onConflict((oc) => oc.columns(['investigation_id', 'idempotency_key']).where('idempotency_key', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return; // this line was written before
  const questionIds = 'ids' in entry.questions ? entry.questions.ids : entry.questions.keys.map((key) => context.questionKeys.get(key)!);
  if (questionIds.length > 0)
    await trx
      .insertInto('evidence_question_links')
      .values([...new Set(questionIds)].map((question_id) => ({ evidence_item_id: evidenceId, question_id })))
      .execute();
  if (/\S/.test(entry.content))
    await writeSourceChunks(
      trx,
      {
        investigation_id: investigationId,
        source_type: 'content',
        source_id: evidenceId,
        evidence_item_id: evidenceId,
        background_document_id: null,
      },
      entry.content,
    );
  for (const [i, file] of entry.attachments.entries()) {
    const attachmentId = attachmentIds[i]!;
    await trx
      .insertInto('attachments')
      .values({
        id: attachmentId,
        evidence_item_id: evidenceId,
        file_name: file.file_name,
        content_type: file.content_type,
        size_bytes: Buffer.byteLength(file.text),
        storage_key: attachmentKey({ organizationId: context.organizationId, investigationId, attachmentId }, file.file_name),
        extracted_text: file.text,
        extraction_status: 'extracted',
        uploaded_at: sql`now()`,
      })
      .execute();
    await writeSourceChunks(
      trx,
      {
        investigation_id: investigationId,
        source_type: 'attachment',
        source_id: attachmentId,
        evidence_item_id: evidenceId,
        background_document_id: null,
      },
      file.text,
    );
  }
};

/** The ids an entry's rows get (decided before its files are put, so their keys are known). */
const idsFor = (entry: ImportEntry): string[] =>
  entry.kind === 'background_document' ? [randomUUID()] : [randomUUID(), ...entry.attachments.map(() => randomUUID())];

/** Writes a batch of lines, their problems and the progress, in one transaction; its files first. */
const writeBatch = async (deps: ImportDeps, context: Context, batch: readonly NumberedLine[]): Promise<void> => {
  const { row } = context;
  const investigationId = row.investigation_id;
  const planned = batch.map((numbered) => {
    const problems = numbered.parsed.ok ? linkProblems(numbered.parsed.entry, context.questions) : numbered.parsed.problems;
    const entry = numbered.parsed.ok && problems.length === 0 ? numbered.parsed.entry : undefined;
    return { ...numbered, problems, entry, ids: entry ? idsFor(entry) : [] };
  });
  for (const { entry, ids } of planned) {
    if (!entry) continue;
    if (entry.kind === 'background_document') {
      await deps.files.put(
        backgroundDocumentKey({ organizationId: context.organizationId, investigationId, documentId: ids[0]! }, entry.file_name),
        entry.text,
        entry.content_type,
      );
    } else {
      for (const [i, file] of entry.attachments.entries())
        await deps.files.put(
          attachmentKey({ organizationId: context.organizationId, investigationId, attachmentId: ids[i + 1]! }, file.file_name),
          file.text,
          file.content_type,
        );
    }
  }
  const failed = planned.filter((p) => p.problems.length > 0);
  await deps.db.transaction().execute(async (trx) => {
    for (const { line, entry, ids } of planned) if (entry) await writeEntry(trx, context, line, entry, ids);
    const problems = failed.flatMap(({ line, problems }) => problems.map((p) => ({ import_id: row.id, line, ...p })));
    if (problems.length > 0) {
      const { kept } = await trx
        .selectFrom('import_errors')
        .select(sql<number>`count(*)::int`.as('kept'))
        .where('import_id', '=', row.id)
        .executeTakeFirstOrThrow();
      const room = Math.max(0, ERRORS_KEPT - kept);
      if (room > 0)
        await trx
          .insertInto('import_errors')
          .values(problems.slice(0, room))
          .onConflict((oc) => oc.doNothing())
          .execute();
    }
    const last = planned.at(-1)!;
    await trx
      .updateTable('imports')
      .set({
        lines_done: last.line,
        bytes_done: last.bytes,
        lines_failed: sql`lines_failed + ${failed.length}`,
        claimed_until: sql`now() + ${LEASE_MS} * interval '1 millisecond'`,
        updated_at: sql`now()`,
      })
      .where('id', '=', row.id)
      .execute();
  });
  if (planned.some((p) => p.entry)) await deps.wake(investigationId);
};

/** Pure: the ndjson lines from a stream of raw lines, numbered from `firstLine`, blank ones left out. */
export async function* numberedNdjson(lines: AsyncIterable<RawLine>, firstLine: number, firstByte: number): AsyncGenerator<NumberedLine> {
  let line = firstLine - 1;
  let bytes = firstByte;
  for await (const raw of lines) {
    line++;
    bytes += raw.bytes;
    const text = line === 1 ? raw.text.replace(/^\uFEFF/, '') : raw.text;
    if (text.trim() === '') continue;
    yield { line, parsed: parseNdjsonLine(text), bytes };
  }
}

/** Adds the questions and topics a seed-format file names that the investigation lacks (matched by text or title). */
const addSeedQuestionsAndTopics = async (deps: ImportDeps, context: Context, file: SeedImport): Promise<void> => {
  const investigationId = context.row.investigation_id;
  await deps.db.transaction().execute(async (trx) => {
    await trx.selectFrom('investigations').select('id').where('id', '=', investigationId).forNoKeyUpdate().execute();
    const existing = await trx
      .selectFrom('questions')
      .select(['id', 'text', 'position'])
      .where('investigation_id', '=', investigationId)
      .execute();
    let position = Math.max(-1, ...existing.map((q) => q.position));
    for (const question of file.questions) {
      let id = existing.find((q) => q.text.trim().toLowerCase() === question.text.toLowerCase())?.id;
      if (!id) {
        id = (
          await trx
            .insertInto('questions')
            .values({ investigation_id: investigationId, text: question.text, position: ++position })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        existing.push({ id, text: question.text, position });
      }
      context.questionKeys.set(question.key, id);
      context.questions.add(id);
    }
    const topics = await trx.selectFrom('topics').select(['title', 'position']).where('investigation_id', '=', investigationId).execute();
    let topicPosition = Math.max(-1, ...topics.map((t) => t.position));
    for (const topic of file.topics) {
      if (topics.some((t) => t.title.toLowerCase() === topic.title.toLowerCase())) continue;
      await trx
        .insertInto('topics')
        .values({ investigation_id: investigationId, title: topic.title, description: topic.description ?? '', position: ++topicPosition })
        .execute();
      topics.push({ title: topic.title, position: topicPosition });
    }
    if (file.problems.length > 0)
      await trx
        .insertInto('import_errors')
        .values(file.problems.slice(0, ERRORS_KEPT).map((p) => ({ import_id: context.row.id, line: 0, ...p })))
        .onConflict((oc) => oc.doNothing())
        .execute();
  });
};

async function* seedLines(file: SeedImport, from: number): AsyncGenerator<NumberedLine> {
  for (let i = from; i < file.lines.length; i++) yield { line: i + 1, parsed: file.lines[i]!, bytes: 0 };
}

const countLines = async (files: ImportFiles, key: string): Promise<number> => {
  let n = 0;
  for await (const _line of files.lines(key, 0)) n++;
  return n;
};

/** Runs the import from where it stopped, for at most its budget. */
export const runImport = async (deps: ImportDeps, importId: string): Promise<ImportRunOutcome> => {
  const now = deps.now ?? Date.now;
  const started = now();
  const budgetMs = deps.budgetMs ?? 200_000;
  const batchLines = deps.batchLines ?? IMPORT_BATCH_LINES;
  const row = await claim(deps.db, importId);
  if (!row) {
    const current = await deps.db.selectFrom('imports').select(['status']).where('id', '=', importId).executeTakeFirst();
    return current && ['queued', 'processing'].includes(current.status) ? 'held' : 'nothing_to_do';
  }
  const investigation = await deps.db
    .selectFrom('investigations')
    .select('organization_id')
    .where('id', '=', row.investigation_id)
    .executeTakeFirstOrThrow();
  const questions = await deps.db.selectFrom('questions').select('id').where('investigation_id', '=', row.investigation_id).execute();
  const context: Context = {
    row,
    organizationId: investigation.organization_id,
    createdBy: row.created_by,
    questions: new Set(questions.map((q) => q.id)),
    questionKeys: new Map(),
  };

  let lines: AsyncIterable<NumberedLine>;
  if (row.format === 'seed') {
    const parsed = parseSeedImport(await deps.files.text(row.storage_key));
    if (!parsed.ok) {
      await finish(deps.db, importId, 'failed', parsed.message);
      return 'failed';
    }
    await addSeedQuestionsAndTopics(deps, context, parsed.file);
    if (row.lines_total === null)
      await deps.db.updateTable('imports').set({ lines_total: parsed.file.lines.length }).where('id', '=', importId).execute();
    lines = seedLines(parsed.file, row.lines_done);
  } else {
    if (row.lines_total === null) {
      const total = await countLines(deps.files, row.storage_key);
      await deps.db.updateTable('imports').set({ lines_total: total }).where('id', '=', importId).execute();
    }
    lines = numberedNdjson(deps.files.lines(row.storage_key, Number(row.bytes_done)), row.lines_done + 1, Number(row.bytes_done));
  }

  let batch: NumberedLine[] = [];
  for await (const line of lines) {
    batch.push(line);
    if (batch.length < batchLines) continue;
    await writeBatch(deps, context, batch);
    batch = [];
    if (now() - started >= budgetMs) {
      await deps.db.updateTable('imports').set({ claimed_until: null }).where('id', '=', importId).execute();
      await deps.continueLater(importId);
      logger.info('import continues in its next part', { importId });
      return 'continued';
    }
  }
  if (batch.length > 0) await writeBatch(deps, context, batch);
  await finish(deps.db, importId, 'complete');
  await deps.wake(row.investigation_id, { doneWriting: true });
  return 'complete';
};
