/** GET /api/analysis/{analysis_id}/feedback/{feedback_id} — one feedback record (what POST …/feedback answers with as Location). */
import { database } from '#core/db/connection';
import { analysisFeedbackGetRoute } from '#core/feedback/contract';
import { getFeedback } from '#core/feedback/history';
import { requireOrg, route } from '#core/http/route';

export const handler = route(analysisFeedbackGetRoute, async ({ caller, params: { analysis_id, feedback_id } }) => ({
  body: await getFeedback(await database(), requireOrg(caller).organizationId, analysis_id, feedback_id),
}));
