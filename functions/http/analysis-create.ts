/** POST /api/analysis — start an analysis; 202 at once, generation continues in the background. */
import { createAnalysis } from '../../layers/core/analysis/create';
import { parseAnalysisRequest } from '../../layers/core/analysis/selection';
import { database } from '../../layers/core/db/connection';
import { httpRoute, requireOrg } from '../../layers/core/http/route';
import { enqueue } from '../../layers/core/queues';

export const handler = httpRoute(async ({ caller, body }) => {
  const request = parseAnalysisRequest(body);
  const org = requireOrg(caller);
  const db = await database();
  const created = await createAnalysis(
    { db, send: (message) => enqueue('generation', message) },
    org,
    request,
  );
  return { status: 202, body: { ...created, poll: `/api/analysis/${created.analysis_id}` }, headers: { location: `/api/analysis/${created.analysis_id}` } };
});
