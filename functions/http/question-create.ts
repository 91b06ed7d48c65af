/** POST /api/investigations/{investigation_id}/questions — add a question; 201. */
import { database } from '#core/db/connection';
import { questionCreateRoute } from '#core/evidence/contract';
import { requireOrg, route } from '#core/http/route';
import { createQuestion } from '#core/ingestion/investigations';

export const handler = route(questionCreateRoute, async ({ caller, params: { investigation_id }, body }) => ({
  body: await createQuestion(await database(), requireOrg(caller).organizationId, investigation_id, body.text),
  headers: { location: `/api/investigations/${investigation_id}` },
}));
