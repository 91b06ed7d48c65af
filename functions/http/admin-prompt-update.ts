/** PATCH /api/admin/prompts/{prompt_type} `{ is_active }` — deactivates (false) or reactivates (true) a prompt type. */
import { adminActor, auditRefusedWrite } from '#core/admin/audit-trail';
import { adminPromptUpdateRoute } from '#core/admin/contract';
import { PROMPT_AUDIT, promptTarget, setPromptActive } from '#core/admin/prompts';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  adminPromptUpdateRoute,
  async ({ caller, params, body }) => {
    const db = await database();
    return { body: await setPromptActive(db, await adminActor(db, caller!), params.prompt_type, body) };
  },
  { refused: auditRefusedWrite(PROMPT_AUDIT.update, ({ event }) => promptTarget(event.pathParameters?.prompt_type)) },
);
