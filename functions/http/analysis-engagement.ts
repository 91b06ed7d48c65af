/**
 * POST /api/analysis/{analysis_id}/engagement — records an engagement gate for the caller:
 * `detail_reviewed` (Gate A) or `citation_checked` (Gate B, 409 before Gate A). Repeats keep the first time.
 */
import { database } from '#core/db/connection';
import { analysisEngagementRoute } from '#core/feedback/contract';
import { recordEngagement } from '#core/feedback/engagement';
import { requireOrg, route } from '#core/http/route';
import { ensureUser } from '#core/repositories/users';

export const handler = route(analysisEngagementRoute, async ({ caller, params, body }) => {
  const org = requireOrg(caller);
  const db = await database();
  return {
    body: await recordEngagement(
      db,
      { organizationId: org.organizationId, userId: await ensureUser(db, org) },
      params.analysis_id,
      body.step,
    ),
  };
});
