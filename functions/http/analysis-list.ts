/**
 * GET /api/analysis?investigation_id=<uuid>[&limit=1..200 (50)][&cursor=<next_cursor>] — an
 * investigation's analyses, newest first, each the view of GET /api/analysis/{id} with its feedback
 * badge. Next page: pass the response's `next_cursor` as `cursor` (null on the last page).
 */
import { analysisListRoute } from '#core/analysis/contract';
import { listAnalyses } from '#core/analysis/read';
import { database } from '#core/db/connection';
import { notFound } from '#core/errors';
import { requireOrg, route } from '#core/http/route';
import { creationPlaceSchema, decodeCursor } from '#core/pagination';
import { userIdBySubject } from '#core/repositories/users';

export const handler = route(analysisListRoute, async ({ caller, query: { investigation_id, limit, cursor } }) => {
  const org = requireOrg(caller);
  const db = await database();
  const list = await listAnalyses(db, org.organizationId, investigation_id, await userIdBySubject(db, org.subject), {
    limit,
    ...(cursor && { after: decodeCursor(cursor, creationPlaceSchema) }),
  });
  if (!list) throw notFound('The investigation');
  return { body: list };
});
