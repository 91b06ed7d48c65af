/**
 * GET /api/analysis?investigation_id=<uuid>[&limit=1..200 (50)][&cursor=<next_cursor>] — an
 * investigation's analyses, newest first, each the view of GET /api/analysis/{id} with its feedback
 * badge. Next page: pass the response's `next_cursor` as `cursor` (null on the last page).
 */
import { analysisListRoute } from '../../layers/core/analysis/contract';
import { listAnalyses } from '../../layers/core/analysis/read';
import { database } from '../../layers/core/db/connection';
import { notFound } from '../../layers/core/errors';
import { requireOrg, route } from '../../layers/core/http/route';
import { creationPlaceSchema, decodeCursor } from '../../layers/core/pagination';
import { userIdBySubject } from '../../layers/core/repositories/users';

export const handler = route(analysisListRoute, async ({ caller, query: { investigation_id, limit, cursor } }) => {
  const org = requireOrg(caller);
  const db = await database();
  const list = await listAnalyses(db, org.organizationId, investigation_id, await userIdBySubject(db, org.subject), {
    limit, ...(cursor && { after: decodeCursor(cursor, creationPlaceSchema) }),
  });
  if (!list) throw notFound('The investigation');
  return { body: list };
});
