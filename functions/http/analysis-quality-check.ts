/**
 * POST /api/analysis/{analysis_id}/quality-check — manually starts the faithfulness and coverage checks:
 * the analysis moves to checking and a message goes to the quality queue; 202 at once, then poll
 * quality-status. 404 for another organization's analysis, 409 while it is not complete, verified or
 * quality_unavailable (still generating, failed, or already checking), 503 (status put back) when the
 * queue cannot take the message.
 */
import { revertQualityStart, startQualityCheck } from '../../layers/core/analysis/quality';
import { database } from '../../layers/core/db/connection';
import { unavailable } from '../../layers/core/http/errors';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';
import { logger } from '../../layers/core/logger';
import { enqueue } from '../../layers/core/queues';

export const handler = httpRoute(async ({ caller, params }) => {
  const { analysis_id } = parseWith(contracts['analysis-quality-check'].params, params);
  const org = requireOrg(caller);
  const db = await database();
  const started = await startQualityCheck(db, analysis_id, org.organizationId);
  try {
    await enqueue('quality', { analysis_id });
  } catch (error) {
    logger.error('quality check could not be queued; status put back', { analysisId: analysis_id, error: error as Error });
    await revertQualityStart(db, analysis_id, started.previous_status);
    throw unavailable('The quality checks could not be started right now; nothing changed. Please try again shortly.');
  }
  return { status: 202, body: { analysis_id, generation_status: 'checking' as const, poll: `/api/analysis/${analysis_id}/quality-status` } };
});
