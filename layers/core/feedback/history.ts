/**
 * Feedback history of an analysis (GET /api/analysis/{id}/feedback, paged): every action, oldest first, with
 * its time, actor, reason and direction, what it produced (the regenerated analysis, the edited text),
 * and the status it stored.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { isoTime, jsonColumn } from '#core/db/values';
import { notFound } from '#core/errors';
import { afterCreationPlace, epochMicros, pageOf, type CreationPlace } from '#core/pagination';
import { analysisOfOrganization } from './engagement';

const recordRows = (db: Kysely<Database>, analysisId: string) =>
  db
    .selectFrom('feedback as f')
    .leftJoin('users as u', 'u.id', 'f.user_id')
    .leftJoin('analysis_revisions as r', 'r.id', 'f.revision_id')
    .select([
      'f.id',
      'f.action',
      'f.status',
      'f.reason',
      'f.direction',
      'f.user_id',
      'u.display_name',
      'f.regenerated_analysis_id',
      'f.revision_id',
      'r.content',
      'f.created_at',
    ])
    .select(epochMicros('f.created_at').as('created_micros'))
    .where('f.analysis_id', '=', analysisId);

type RecordRow = Awaited<ReturnType<ReturnType<typeof recordRows>['executeTakeFirstOrThrow']>>;

const toRecord = (row: RecordRow) => ({
  feedback_id: row.id,
  action: row.action,
  status: row.status,
  reason: row.reason,
  direction: row.direction,
  actor: row.user_id ? { user_id: row.user_id, display_name: row.display_name } : null,
  regenerated_analysis_id: row.regenerated_analysis_id,
  revision_id: row.revision_id,
  content: jsonColumn<{ text: string }>(row.content)?.text ?? null,
  created_at: isoTime(row.created_at)!,
});

/** One feedback record of the analysis, as the history lists it. */
export const feedbackRecord = async (db: Kysely<Database>, analysisId: string, feedbackId: string) =>
  toRecord(await recordRows(db, analysisId).where('f.id', '=', feedbackId).executeTakeFirstOrThrow());

/** GET /api/analysis/{id}/feedback/{feedback_id}: one record; 404 unless both are the organization's and belong together. */
export const getFeedback = async (db: Kysely<Database>, organizationId: string, analysisId: string, feedbackId: string) => {
  const row =
    (await analysisOfOrganization(db, organizationId, analysisId).executeTakeFirst()) &&
    (await recordRows(db, analysisId).where('f.id', '=', feedbackId).executeTakeFirst());
  if (!row) throw notFound('The feedback record');
  return toRecord(row);
};

/** Every feedback record of an analysis, oldest first (the export's history; the caller has checked the analysis is theirs). */
export const feedbackHistory = async (db: Kysely<Database>, analysisId: string) =>
  (await recordRows(db, analysisId).orderBy('f.created_at').orderBy('f.id').execute()).map(toRecord);

export const FEEDBACK_LIST = { defaultLimit: 50, maxLimit: 200 } as const;

/** A page of the analysis's feedback, oldest first (ties broken by id), after `after`; 404 when it is not the organization's. */
export const listFeedback = async (
  db: Kysely<Database>,
  organizationId: string,
  analysisId: string,
  { limit, after }: { limit: number; after?: CreationPlace },
) => {
  const analysis = await analysisOfOrganization(db, organizationId, analysisId).executeTakeFirst();
  if (!analysis) throw notFound('The analysis');
  let query = recordRows(db, analysisId);
  if (after) query = query.where(afterCreationPlace('f.created_at', 'f.id', 'asc', after));
  const rows = await query
    .orderBy('f.created_at')
    .orderBy('f.id')
    .limit(limit + 1)
    .execute();
  const { items, next_cursor } = pageOf(rows, limit, (row) => [row.created_micros, row.id]);
  return { analysis_id: analysisId, feedback: items.map(toRecord), next_cursor };
};
