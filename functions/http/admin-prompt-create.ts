/** POST /api/admin/prompts `{ prompt_type, system_prompt, user_prompt_template }` — the next version of a type (201). */
import { adminActor, auditRefusedWrite, fieldOf } from '#core/admin/audit-trail';
import { adminPromptCreateRoute } from '#core/admin/contract';
import { createPromptVersion, PROMPT_AUDIT, promptTarget, versionLocation } from '#core/admin/prompts';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  adminPromptCreateRoute,
  async ({ caller, body }) => {
    const db = await database();
    const version = await createPromptVersion(db, await adminActor(db, caller!), body);
    return { body: version, headers: { location: versionLocation(version) } };
  },
  { refused: auditRefusedWrite(PROMPT_AUDIT.create, ({ content }) => promptTarget(fieldOf(content, 'prompt_type'))) },
);
