/** PATCH /api/admin/prompts/{prompt_type} `{ is_active }` — deactivates (false) or reactivates (true) a prompt type. */
import { adminActor, auditRefusedWrite } from '../../layers/core/admin/audit-trail';
import { adminPromptUpdateRoute } from '../../layers/core/admin/contract';
import { PROMPT_AUDIT, promptTarget, setPromptActive } from '../../layers/core/admin/prompts';
import { database } from '../../layers/core/db/connection';
import { route } from '../../layers/core/http/route';

export const handler = route(adminPromptUpdateRoute, async ({ caller, params, body }) => {
  const db = await database();
  return { body: await setPromptActive(db, await adminActor(db, caller!), params.prompt_type, body) };
}, { refused: auditRefusedWrite(PROMPT_AUDIT.update, ({ event }) => promptTarget(event.pathParameters?.prompt_type)) });
