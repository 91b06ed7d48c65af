/** POST /api/analysis/assess — the evidence check before generation (no AI call, no similarity scoring). */
import { assessEvidence } from '#core/analysis/assess';
import { analysisAssessRoute } from '#core/analysis/contract';
import { resolveSelection } from '#core/analysis/selection';
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';

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
