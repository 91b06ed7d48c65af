/** POST /api/investigations/{investigation_id}/topics — add a topic; 201. */
import { database } from '#core/db/connection';
import { topicCreateRoute } from '#core/evidence/contract';
import { requireOrg, route } from '#core/http/route';
import { createTopic } from '#core/ingestion/investigations';

export const handler = route(topicCreateRoute, async ({ caller, params: { investigation_id }, body }) => ({
  body: await createTopic(await database(), requireOrg(caller).organizationId, investigation_id, body),
  headers: { location: `/api/investigations/${investigation_id}` },
}));
