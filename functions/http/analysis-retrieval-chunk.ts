/**
 * GET /api/analysis/{analysis_id}/retrieval/{chunk_id} — one chunk the AI considered, whole, in its surrounding passage
 * (a citation opened).
 */
import { analysisRetrievalChunkRoute } from '../../layers/core/analysis/contract';
import { getRetrievalChunk } from '../../layers/core/analysis/retrieval-view';
import { database } from '../../layers/core/db/connection';
import { notFound } from '../../layers/core/errors';
import { requireOrg, route } from '../../layers/core/http/route';

export const handler = route(analysisRetrievalChunkRoute, async ({ caller, params: { analysis_id, chunk_id } }) => {
  const chunk = await getRetrievalChunk(await database(), requireOrg(caller).organizationId, analysis_id, chunk_id);
  if (!chunk) throw notFound('The chunk in this analysis\'s retrieval');
  return { body: chunk };
});
