/**
 * POST /api/analysis/{analysis_id}/quality-check — manually starts the faithfulness and coverage checks:
 * the analysis moves to checking and a message goes to the quality queue; 202 at once, then poll
 * quality-status. 404 for another organization's analysis, 409 while it is not complete, verified or
 * quality_unavailable (still generating, failed, or already checking), 503 (status put back) when the
 * queue cannot take the message.
 */
import { requestQualityCheck } from '../../layers/core/analysis/quality';
import { database } from '../../layers/core/db/connection';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';
import { enqueue } from '../../layers/core/queues';

export const handler = httpRoute(async ({ caller, params }) => {
  const { analysis_id } = parseWith(contracts['analysis-quality-check'].params, params);
  const org = requireOrg(caller);
  await requestQualityCheck({ db: await database(), send: (message) => enqueue('quality', message) }, analysis_id, org.organizationId);
  const poll = `/api/analysis/${analysis_id}/quality-status`;
  return { status: 202, body: { analysis_id, generation_status: 'checking' as const, poll }, headers: { location: poll } };
});
