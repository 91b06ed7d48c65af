/** GET /api/analysis/feedback-metrics: the investigation's analyses and feedback, measured by the pure rules. */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { feedbackMetrics } from '#core/domain/feedback-metrics';
import { notFound } from '#core/errors';
import { isOrganizationInvestigation } from '#core/repositories/investigations';

export const investigationFeedbackMetrics = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  now = new Date(),
) => {
  if (!(await isOrganizationInvestigation(db, organizationId, investigationId))) throw notFound('The investigation');
  const [analyses, feedback] = await Promise.all([
    db
      .selectFrom('analyses')
      .select(['id as analysis_id', 'analysis_type', 'generation_status'])
      .where('investigation_id', '=', investigationId)
      .execute(),
    db
      .selectFrom('feedback as f')
      .innerJoin('analyses as a', 'a.id', 'f.analysis_id')
      .select(['f.analysis_id', 'f.user_id', 'f.action', 'f.reason', 'f.created_at'])
      .where('a.investigation_id', '=', investigationId)
      .execute(),
  ]);
  const metrics = feedbackMetrics({ analyses, feedback: feedback.map((f) => ({ ...f, created_at: new Date(f.created_at) })), now });
  return { investigation_id: investigationId, as_of: now.toISOString(), ...metrics };
};
