/** POST /api/analysis/assess — the evidence check before generation (no AI call, no similarity scoring). */
import { assessEvidence } from '../../layers/core/analysis/assess';
import { analysisAssessRoute } from '../../layers/core/analysis/contract';
import { resolveSelection } from '../../layers/core/analysis/selection';
import { database } from '../../layers/core/db/connection';
import { requireOrg, route } from '../../layers/core/http/route';

export const handler = route(analysisAssessRoute, async ({ caller, body: request }) => {
  const db = await database();
  const { investigation, question } = await resolveSelection(db, requireOrg(caller).organizationId, request);
  const assessment = await assessEvidence(db, {
    investigationId: investigation.id,
    analysisType: request.analysis_type,
    ...(question && { questionId: question.id }),
  });
  return { body: assessment };
});
