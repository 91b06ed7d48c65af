/**
 * GET /api/analysis/feedback-metrics?investigation_id= — acceptance, rejection, regeneration and edit
 * rates, breakdown by analysis type, top regeneration reasons, 8-week trend (docs/feedback.md).
 */
import { database } from '../../layers/core/db/connection';
import { investigationFeedbackMetrics } from '../../layers/core/feedback/metrics';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, query }) => {
  const { investigation_id } = parseWith(contracts['feedback-metrics'].query, query);
  const org = requireOrg(caller);
  return { body: await investigationFeedbackMetrics(await database(), org.organizationId, investigation_id) };
});
