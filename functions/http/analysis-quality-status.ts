/** GET /api/analysis/{analysis_id}/quality-status — progress of the quality checks, for polling (404 for another organization). */
import { analysisQualityStatusRoute } from '#core/analysis/contract';
import { qualityStatus } from '#core/analysis/quality';
import { database } from '#core/db/connection';
import { notFound } from '#core/errors';
import { requireOrg, route } from '#core/http/route';

export const handler = route(analysisQualityStatusRoute, async ({ caller, params: { analysis_id } }) => {
  const status = await qualityStatus(await database(), requireOrg(caller).organizationId, analysis_id);
  if (!status) throw notFound('The analysis');
  return { body: status };
});
