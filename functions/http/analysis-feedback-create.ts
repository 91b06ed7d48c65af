/**
 * POST /api/analysis/{analysis_id}/feedback — agree, disagree, unsure (after both gates), regenerate,
 * edit or view. 201 with what was recorded; a retry with the same request id (body `request_id` or the
 * Idempotency-Key header) records nothing new and answers 200 with the first result. Location: the record.
 */
import { database } from '#core/db/connection';
import { feedbackRequest, recordFeedback } from '#core/feedback/actions';
import { analysisFeedbackCreateRoute } from '#core/feedback/contract';
import { requireOrg, route } from '#core/http/route';
import { enqueue } from '#core/queues';
import { ensureUser } from '#core/repositories/users';

export const handler = route(analysisFeedbackCreateRoute, async ({ caller, params: { analysis_id }, headers, body }) => {
  const { input, requestId } = feedbackRequest(body, headers['idempotency-key']);
  const org = requireOrg(caller);
  const db = await database();
  const actor = { organizationId: org.organizationId, userId: await ensureUser(db, org) };
  const result = await recordFeedback({ db, send: (message) => enqueue('generation', message) }, actor, analysis_id, input, requestId);
  // the record, created now or by the first copy of a retried submit
  return {
    status: result.replayed ? 200 : 201,
    body: result,
    headers: { location: `/api/analysis/${analysis_id}/feedback/${result.feedback.feedback_id}` },
  };
});
