/** GET /api/analysis/{analysis_id}/retrieval — the chunks the AI considered, with similarity bands and inclusion; loaded on demand. */
import { analysisRetrievalRoute } from '#core/analysis/contract';
import { getRetrieval } from '#core/analysis/retrieval-view';
import { database } from '#core/db/connection';
import { notFound } from '#core/errors';
import { requireOrg, route } from '#core/http/route';

export const handler = route(analysisRetrievalRoute, async ({ caller, params: { analysis_id } }) => {
  const retrieval = await getRetrieval(await database(), requireOrg(caller).organizationId, analysis_id);
  if (!retrieval) throw notFound('The analysis');
  return { body: retrieval };
});
