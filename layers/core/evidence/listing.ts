/**
 * GET /api/investigations/{investigation_id}/evidence: what an investigation holds, as the evidence side
 * panel lists it — evidence items with their attachments, then background documents — one paginated list
 * (the shared convention, ../pagination.ts), so a client pages through everything with one cursor.
 * Every file carries the id GET /api/storage/view opens it with (`attachment_id` or
 * `background_document_id`) and that request's path. Evidence items come first, then background
 * documents; each part by title, then id (keyset order: a page is never skipped or repeated as rows are added).
 * The cursor names the last entry (kind and id), not its title: a title of 300 characters would not fit in
 * one; so a cursor whose entry has since been deleted is refused (400), and the client starts again.
 * Each entry says how far it has come in (readiness.ts: one query over the investigation's unfinished parts).
 */
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import type { ExtractionStatus } from '#core/domain/vocabulary';
import { isoTime } from '#core/db/values';
import { validationFailed } from '#core/errors';
import { type Readiness, unfinishedReadiness } from '#core/ingestion/readiness';
import { decodeCursor, pageOf } from '#core/pagination';
import { isOrganizationInvestigation } from '#core/repositories/investigations';
import { ifUsed } from '#core/if-used';

type EvidenceKind = 'evidence_item' | 'background_document';

interface AttachmentEntry {
  attachment_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  view_path: string;
}

/** An entry as its table gives it; the listing adds its readiness. */
type Listed =
  | { kind: 'evidence_item'; evidence_item_id: string; title: string; collected_at: string | null; attachments: AttachmentEntry[] }
  | {
      kind: 'background_document';
      background_document_id: string;
      title: string;
      file_name: string;
      content_type: string;
      size_bytes: number;
      /** whether the AI is given it (an administrator may exclude one) */
      included: boolean;
      extraction_status: ExtractionStatus;
      view_path: string;
    };

export type EvidenceEntry = Listed & { readiness: Readiness };

export interface EvidencePage {
  investigation_id: string;
  items: EvidenceEntry[];
  next_cursor: string | null;
}

/** The request that opens a file in the storage viewer (layers/core/files/view.ts). */
const storageViewPath = (kind: 'attachment_id' | 'background_document_id', id: string): string => `/api/storage/view?${kind}=${id}`;

const KIND_ORDER: readonly EvidenceKind[] = ['evidence_item', 'background_document'];
const placeSchema = /* @__PURE__ */ ifUsed(() => z.tuple([z.enum(KIND_ORDER), z.uuid()]));
const TABLE = { evidence_item: 'evidence_items', background_document: 'background_documents' } as const;

/** Where the previous page ended: its last entry's kind, title and id. */
interface Place {
  kind: EvidenceKind;
  title: string;
  id: string;
}

const placeOf = async (db: Kysely<Database>, investigationId: string, cursor: string): Promise<Place> => {
  const [kind, id] = decodeCursor(cursor, placeSchema);
  const row = await db
    .selectFrom(TABLE[kind])
    .select('title')
    .where('id', '=', id)
    .where('investigation_id', '=', investigationId)
    .executeTakeFirst();
  if (!row)
    throw validationFailed([{ path: 'cursor', message: 'names an entry that is no longer listed; start again from the first page' }]);
  return { kind, title: row.title, id };
};

const idOf = (entry: Listed): string => (entry.kind === 'evidence_item' ? entry.evidence_item_id : entry.background_document_id);

/** Undefined when the investigation is missing or not the organization's. */
export const listEvidence = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<EvidencePage | undefined> => {
  if (!(await isOrganizationInvestigation(db, organizationId, investigationId))) return undefined;
  const after = page.cursor === undefined ? undefined : await placeOf(db, investigationId, page.cursor);
  const want = page.limit + 1; // one more than the page: whether there is a next one
  const items = after?.kind === 'background_document' ? [] : await evidenceItems(db, investigationId, after, want);
  const documents =
    items.length >= want
      ? []
      : await backgroundDocuments(db, investigationId, after?.kind === 'background_document' ? after : undefined, want - items.length);
  const { items: listed, next_cursor } = pageOf([...items, ...documents], page.limit, (entry) => [entry.kind, idOf(entry)]);
  const unfinished = listed.length === 0 ? new Map<string, Readiness>() : await unfinishedReadiness(db, investigationId);
  const entries = listed.map((entry) => ({ ...entry, readiness: unfinished.get(idOf(entry)) ?? 'ready' }));
  return { investigation_id: investigationId, items: entries, next_cursor };
};

type Part = (db: Kysely<Database>, investigationId: string, after: Place | undefined, limit: number) => Promise<Listed[]>;

const evidenceItems: Part = async (db, investigationId, after, limit) => {
  let query = db.selectFrom('evidence_items').select(['id', 'title', 'collected_at']).where('investigation_id', '=', investigationId);
  if (after) query = query.where((eb) => eb(eb.refTuple('title', 'id'), '>', eb.tuple(after.title, after.id)));
  const rows = await query.orderBy('title').orderBy('id').limit(limit).execute();
  if (rows.length === 0) return [];
  const attachments = await db
    .selectFrom('attachments')
    .select(['id', 'evidence_item_id', 'file_name', 'content_type', 'size_bytes'])
    .where(
      'evidence_item_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('file_name')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    kind: 'evidence_item',
    evidence_item_id: row.id,
    title: row.title,
    collected_at: isoTime(row.collected_at),
    attachments: attachments
      .filter((a) => a.evidence_item_id === row.id)
      .map((a) => ({
        attachment_id: a.id,
        file_name: a.file_name,
        content_type: a.content_type,
        size_bytes: Number(a.size_bytes),
        view_path: storageViewPath('attachment_id', a.id),
      })),
  }));
};

const backgroundDocuments: Part = async (db, investigationId, after, limit) => {
  let query = db
    .selectFrom('background_documents')
    .select(['id', 'title', 'file_name', 'content_type', 'size_bytes', 'included_for_ai', 'extraction_status'])
    .where('investigation_id', '=', investigationId);
  if (after) query = query.where((eb) => eb(eb.refTuple('title', 'id'), '>', eb.tuple(after.title, after.id)));
  const rows = await query.orderBy('title').orderBy('id').limit(limit).execute();
  return rows.map((row) => ({
    kind: 'background_document',
    background_document_id: row.id,
    title: row.title,
    file_name: row.file_name,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    included: row.included_for_ai,
    extraction_status: row.extraction_status,
    view_path: storageViewPath('background_document_id', row.id),
  }));
};
