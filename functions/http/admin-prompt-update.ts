/** PATCH /api/admin/prompts/{prompt_type} `{ is_active }` — deactivates (false) or reactivates (true) a prompt type. */
import { adminActor } from '../../layers/core/admin/audit-trail';
import { setPromptActive } from '../../layers/core/admin/prompts';
import { database } from '../../layers/core/db/connection';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, params, body }) => {
  const db = await database();
  return { body: await setPromptActive(db, await adminActor(db, caller!), params.prompt_type, body) };
}, { auditsEveryAttempt: true });
