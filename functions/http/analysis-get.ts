/** GET /api/analysis/{analysis_id} — one analysis; clients poll it every 3 s for up to 5 min. */
import { getAnalysis } from '../../layers/core/analysis/read';
import { database } from '../../layers/core/db/connection';
import { notFound } from '../../layers/core/http/errors';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';
import { userIdBySubject } from '../../layers/core/repositories/users';

export const handler = httpRoute(async ({ caller, params }) => {
  const { analysis_id } = parseWith(contracts['analysis-get'].params, params);
  const org = requireOrg(caller);
  const db = await database();
  const analysis = await getAnalysis(db, org.organizationId, analysis_id, await userIdBySubject(db, org.subject));
  if (!analysis) throw notFound('The analysis');
  return { body: analysis };
});
