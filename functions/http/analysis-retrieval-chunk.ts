/**
 * GET /api/analysis/{analysis_id}/retrieval/{chunk_id} — one chunk the AI considered, whole, in its surrounding passage
 * (a citation opened).
 */
import { analysisRetrievalChunkRoute } from '#core/analysis/contract';
import { getRetrievalChunk } from '#core/analysis/retrieval-view';
import { database } from '#core/db/connection';
import { notFound } from '#core/errors';
import { requireOrg, route } from '#core/http/route';

export const handler = route(analysisRetrievalChunkRoute, async ({ caller, params: { analysis_id, chunk_id }, query: { around } }) => {
  const chunk = await getRetrievalChunk(await database(), requireOrg(caller).organizationId, analysis_id, chunk_id, around);
  if (!chunk) throw notFound("The chunk in this analysis's retrieval");
  return { body: chunk };
});
