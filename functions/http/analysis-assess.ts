/** POST /api/analysis/assess — the evidence check before generation (no AI call, no similarity scoring). */
import { assessSelection } from '#core/analysis/assess';
import { analysisAssessRoute } from '#core/analysis/contract';
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';

export const handler = route(analysisAssessRoute, async ({ caller, body: request }) => {
  // the selection's 404s and the counts in one statement (one round trip)
  const { assessment } = await assessSelection(await database(), requireOrg(caller).organizationId, request);
  return { body: assessment };
});
