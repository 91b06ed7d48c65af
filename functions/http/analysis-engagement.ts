/**
 * POST /api/analysis/{analysis_id}/engagement — records an engagement gate for the caller:
 * `detail_reviewed` (Gate A) or `citation_checked` (Gate B, 409 before Gate A). Repeats keep the first time.
 */
import { database } from '../../layers/core/db/connection';
import { recordEngagement } from '../../layers/core/feedback/engagement';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';
import { ensureUser } from '../../layers/core/repositories/users';

export const handler = httpRoute(async ({ caller, params, body }) => {
  const { analysis_id } = parseWith(contracts['analysis-engagement'].params, params);
  const { step } = parseWith(contracts['analysis-engagement'].body, body);
  const org = requireOrg(caller);
  const db = await database();
  return { body: await recordEngagement(db, { organizationId: org.organizationId, userId: await ensureUser(db, org) }, analysis_id, step) };
});
