/**
 * Feedback history of an analysis (GET /api/analysis/{id}/feedback): every action, oldest first, with
 * its time, actor, reason and direction, what it produced (the regenerated analysis, the edited text),
 * and the status it stored.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isoTime, jsonColumn } from '../db/values';
import { notFound } from '../http/errors';
import { analysisOfOrganization } from './engagement';

/** The analysis's feedback records, oldest first (one record when `feedbackId` is given). */
export const feedbackRecords = async (db: Kysely<Database>, analysisId: string, feedbackId?: string) => {
  let query = db.selectFrom('feedback as f')
    .leftJoin('users as u', 'u.id', 'f.user_id')
    .leftJoin('analysis_revisions as r', 'r.id', 'f.revision_id')
    .select(['f.id', 'f.action', 'f.status', 'f.reason', 'f.direction', 'f.user_id', 'u.display_name', 'f.regenerated_analysis_id',
      'f.revision_id', 'r.content', 'f.created_at'])
    .where('f.analysis_id', '=', analysisId);
  if (feedbackId) query = query.where('f.id', '=', feedbackId);
  const rows = await query.orderBy('f.created_at').orderBy('f.id').execute();
  return rows.map((row) => ({
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
  }));
};

export type FeedbackRecord = Awaited<ReturnType<typeof feedbackRecords>>[number];

export const listFeedback = async (db: Kysely<Database>, organizationId: string, analysisId: string) => {
  const analysis = await analysisOfOrganization(db, organizationId, analysisId).executeTakeFirst();
  if (!analysis) throw notFound('The analysis');
  return { analysis_id: analysisId, feedback: await feedbackRecords(db, analysisId) };
};
