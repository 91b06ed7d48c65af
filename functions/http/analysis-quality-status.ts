/** GET /api/analysis/{analysis_id}/quality-status — progress of the quality checks, for polling (404 for another organization). */
import { qualityStatus } from '../../layers/core/analysis/quality';
import { database } from '../../layers/core/db/connection';
import { notFound } from '../../layers/core/http/errors';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, params }) => {
  const { analysis_id } = parseWith(contracts['analysis-quality-status'].params, params);
  const org = requireOrg(caller);
  const status = await qualityStatus(await database(), org.organizationId, analysis_id);
  if (!status) throw notFound('The analysis');
  return { body: status };
});
