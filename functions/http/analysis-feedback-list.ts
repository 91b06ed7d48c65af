/** GET /api/analysis/{analysis_id}/feedback[?limit=1..200 (50)][&cursor=<next_cursor>] — the analysis's feedback actions, oldest first. */
import { database } from '../../layers/core/db/connection';
import { listFeedback } from '../../layers/core/feedback/history';
import { contracts } from '../../layers/core/http/contracts';
import { creationPlaceSchema, decodeCursor } from '../../layers/core/http/pagination';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, params, query }) => {
  const { analysis_id } = parseWith(contracts['analysis-feedback-list'].params, params);
  const { limit, cursor } = parseWith(contracts['analysis-feedback-list'].query, query);
  return {
    body: await listFeedback(await database(), requireOrg(caller).organizationId, analysis_id, {
      limit, ...(cursor && { after: decodeCursor(cursor, creationPlaceSchema) }),
    }),
  };
});
