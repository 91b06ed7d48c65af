/**
 * GET /api/analysis/{analysis_id}/retrieval/{chunk_id} — one chunk the AI considered, whole, in its surrounding passage
 * (a citation opened).
 */
import { getRetrievalChunk } from '../../layers/core/analysis/retrieval-view';
import { database } from '../../layers/core/db/connection';
import { contracts } from '../../layers/core/http/contracts';
import { notFound } from '../../layers/core/http/errors';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, params }) => {
  const { analysis_id, chunk_id } = parseWith(contracts['analysis-retrieval-chunk'].params, params);
  const org = requireOrg(caller);
  const chunk = await getRetrievalChunk(await database(), org.organizationId, analysis_id, chunk_id);
  if (!chunk) throw notFound('The chunk in this analysis\'s retrieval');
  return { body: chunk };
});
