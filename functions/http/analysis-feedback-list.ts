/** GET /api/analysis/{analysis_id}/feedback[?limit=1..200 (50)][&cursor=<next_cursor>] — the analysis's feedback actions, oldest first. */
import { database } from '#core/db/connection';
import { analysisFeedbackListRoute } from '#core/feedback/contract';
import { listFeedback } from '#core/feedback/history';
import { requireOrg, route } from '#core/http/route';
import { creationPlaceSchema, decodeCursor } from '#core/pagination';

export const handler = route(analysisFeedbackListRoute, async ({ caller, params: { analysis_id }, query: { limit, cursor } }) => ({
  body: await listFeedback(await database(), requireOrg(caller).organizationId, analysis_id, {
    limit,
    ...(cursor && { after: decodeCursor(cursor, creationPlaceSchema) }),
  }),
}));
