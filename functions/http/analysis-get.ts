/** GET /api/analysis/{analysis_id} — one analysis; clients poll it every 3 s for up to 5 min. */
import { analysisGetRoute } from '#core/analysis/contract';
import { getAnalysis } from '#core/analysis/read';
import { database } from '#core/db/connection';
import { notFound } from '#core/errors';
import { requireOrg, route } from '#core/http/route';
import { userIdBySubject } from '#core/repositories/users';

export const handler = route(analysisGetRoute, async ({ caller, params: { analysis_id } }) => {
  const org = requireOrg(caller);
  const db = await database();
  const analysis = await getAnalysis(db, org.organizationId, analysis_id, await userIdBySubject(db, org.subject));
  if (!analysis) throw notFound('The analysis');
  return { body: analysis };
});
