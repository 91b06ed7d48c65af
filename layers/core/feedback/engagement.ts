/**
 * Engagement gates (SPEC "Engagement gates"), persisted per analysis and per investigator:
 * Gate A `detail_reviewed` (the detail section was expanded), then Gate B `citation_checked` (a citation
 * was opened in the evidence panel). Repeating a step is harmless and keeps the first timestamp;
 * Gate B before Gate A is a 409. Gates open only on an analysis with output to review.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { isoTime } from '#core/db/values';
import { judgmentEnabled } from '#core/domain/feedback';
import { isGenerated } from '#core/domain/generation-status';
import { conflict, notFound } from '#core/errors';
import { organizationAnalyses } from '#core/repositories/analyses';

export const ENGAGEMENT_STEPS = ['detail_reviewed', 'citation_checked'] as const;
export type EngagementStep = (typeof ENGAGEMENT_STEPS)[number];

export interface Actor {
  organizationId: string;
  userId: string;
}

/** The analysis if it is the organization's, with what feedback needs of it. */
export const analysisOfOrganization = (db: Kysely<Database>, organizationId: string, analysisId: string) =>
  organizationAnalyses(db, organizationId)
    .select([
      'a.id',
      'a.investigation_id',
      'a.analysis_type',
      'a.question_id',
      'a.topic_id',
      'a.generation_status',
      'a.feedback_status',
      'a.validation_status',
      'a.faithfulness_score',
      'a.coverage_score',
    ])
    .where('a.id', '=', analysisId);

export const recordEngagement = async (db: Kysely<Database>, actor: Actor, analysisId: string, step: EngagementStep, now = new Date()) => {
  const analysis = await analysisOfOrganization(db, actor.organizationId, analysisId).executeTakeFirst();
  if (!analysis) throw notFound('The analysis');
  if (!isGenerated(analysis.generation_status)) {
    throw conflict('The analysis has no output to review yet.', { generation_status: analysis.generation_status });
  }
  const gates =
    step === 'detail_reviewed'
      ? await db
          .insertInto('analysis_engagements')
          .values({ analysis_id: analysisId, user_id: actor.userId, detail_reviewed_at: now })
          .onConflict((oc) =>
            oc
              .columns(['analysis_id', 'user_id'])
              .doUpdateSet({ detail_reviewed_at: sql`coalesce(analysis_engagements.detail_reviewed_at, excluded.detail_reviewed_at)` }),
          )
          .returning(['detail_reviewed_at', 'citation_checked_at'])
          .executeTakeFirstOrThrow()
      : await db
          .updateTable('analysis_engagements')
          .set({ citation_checked_at: sql`coalesce(citation_checked_at, ${now})` })
          .where('analysis_id', '=', analysisId)
          .where('user_id', '=', actor.userId)
          .where('detail_reviewed_at', 'is not', null)
          .returning(['detail_reviewed_at', 'citation_checked_at'])
          .executeTakeFirst();
  if (!gates) {
    throw conflict('Review the analysis detail first (Gate A: detail_reviewed) before checking a citation (Gate B).', {
      missing: ['detail_reviewed'],
    });
  }
  return {
    analysis_id: analysisId,
    detail_reviewed_at: isoTime(gates.detail_reviewed_at),
    citation_checked_at: isoTime(gates.citation_checked_at),
    judgment_enabled: judgmentEnabled(analysis.generation_status, gates),
  };
};
