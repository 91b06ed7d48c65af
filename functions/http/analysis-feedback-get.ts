/** GET /api/analysis/{analysis_id}/feedback/{feedback_id} — one feedback record (what POST …/feedback answers with as Location). */
import { database } from '../../layers/core/db/connection';
import { getFeedback } from '../../layers/core/feedback/history';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, params }) => {
  const { analysis_id, feedback_id } = parseWith(contracts['analysis-feedback-get'].params, params);
  return { body: await getFeedback(await database(), requireOrg(caller).organizationId, analysis_id, feedback_id) };
});
