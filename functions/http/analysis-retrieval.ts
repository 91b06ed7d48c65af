/** GET /api/analysis/{analysis_id}/retrieval — the chunks the AI considered, with similarity bands and inclusion; loaded on demand. */
import { getRetrieval } from '../../layers/core/analysis/retrieval-view';
import { database } from '../../layers/core/db/connection';
import { notFound } from '../../layers/core/http/errors';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, params }) => {
  const { analysis_id } = parseWith(contracts['analysis-retrieval'].params, params);
  const org = requireOrg(caller);
  const retrieval = await getRetrieval(await database(), org.organizationId, analysis_id);
  if (!retrieval) throw notFound('The analysis');
  return { body: retrieval };
});
