/**
 * GET /api/analysis/feedback-metrics?investigation_id= — acceptance, rejection, regeneration and edit
 * rates, breakdown by analysis type, top regeneration reasons, 8-week trend (docs/feedback.md).
 */
import { database } from '#core/db/connection';
import { feedbackMetricsRoute } from '#core/feedback/contract';
import { investigationFeedbackMetrics } from '#core/feedback/metrics';
import { requireOrg, route } from '#core/http/route';

export const handler = route(feedbackMetricsRoute, async ({ caller, query: { investigation_id } }) => ({
  body: await investigationFeedbackMetrics(await database(), requireOrg(caller).organizationId, investigation_id),
}));
