/**
 * POST /api/analysis/{analysis_id}/quality-check — manually starts the faithfulness and coverage checks:
 * the analysis moves to checking and a message goes to the quality queue; 202 at once, then poll
 * quality-status. 404 for another organization's analysis, 409 while it is not complete, verified or
 * quality_unavailable (still generating, failed, or already checking), 503 (status put back) when the
 * queue cannot take the message.
 */
import { analysisQualityCheckRoute } from '#core/analysis/contract';
import { requestQualityCheck } from '#core/analysis/quality';
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { enqueue } from '#core/queues';

export const handler = route(analysisQualityCheckRoute, async ({ caller, params: { analysis_id } }) => {
  const org = requireOrg(caller);
  await requestQualityCheck({ db: await database(), send: (message) => enqueue('quality', message) }, analysis_id, org.organizationId);
  const poll = `/api/analysis/${analysis_id}/quality-status`;
  return { body: { analysis_id, generation_status: 'checking' as const, poll }, headers: { location: poll } };
});
