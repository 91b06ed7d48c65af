/** GET /api/analysis/{analysis_id}/feedback — every feedback action on the analysis, oldest first. */
import { database } from '../../layers/core/db/connection';
import { listFeedback } from '../../layers/core/feedback/history';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, params }) => {
  const { analysis_id } = parseWith(contracts['analysis-feedback-list'].params, params);
  const org = requireOrg(caller);
  return { body: await listFeedback(await database(), org.organizationId, analysis_id) };
});
