/** POST /api/analysis — start an analysis; 202 at once, generation continues in the background. */
import { analysisCreateRoute } from '#core/analysis/contract';
import { createAnalysis } from '#core/analysis/create';
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { enqueue } from '#core/queues';

export const handler = route(analysisCreateRoute, async ({ caller, body: request }) => {
  const org = requireOrg(caller);
  const db = await database();
  const created = await createAnalysis({ db, send: (message) => enqueue('generation', message) }, org, request);
  return {
    body: { ...created, poll: `/api/analysis/${created.analysis_id}` },
    headers: { location: `/api/analysis/${created.analysis_id}` },
  };
});
