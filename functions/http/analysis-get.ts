/** GET /api/analysis/{analysis_id} — one analysis; clients poll it every 3 s for up to 5 min. */
import { analysisGetRoute } from '../../layers/core/analysis/contract';
import { getAnalysis } from '../../layers/core/analysis/read';
import { database } from '../../layers/core/db/connection';
import { notFound } from '../../layers/core/errors';
import { requireOrg, route } from '../../layers/core/http/route';
import { userIdBySubject } from '../../layers/core/repositories/users';

export const handler = route(analysisGetRoute, async ({ caller, params: { analysis_id } }) => {
  const org = requireOrg(caller);
  const db = await database();
  const analysis = await getAnalysis(db, org.organizationId, analysis_id, await userIdBySubject(db, org.subject));
  if (!analysis) throw notFound('The analysis');
  return { body: analysis };
});
