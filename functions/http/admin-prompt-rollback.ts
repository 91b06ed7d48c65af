/** POST /api/admin/prompts/history `{ prompt_type, version }` — a new version holding version N's content (201). */
import { adminActor, auditRefusedWrite, fieldOf } from '#core/admin/audit-trail';
import { adminPromptRollbackRoute } from '#core/admin/contract';
import { PROMPT_AUDIT, promptTarget, rollbackPrompt, versionLocation } from '#core/admin/prompts';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  adminPromptRollbackRoute,
  async ({ caller, body }) => {
    const db = await database();
    const version = await rollbackPrompt(db, await adminActor(db, caller!), body);
    return { body: version, headers: { location: versionLocation(version) } };
  },
  { refused: auditRefusedWrite(PROMPT_AUDIT.rollback, ({ content }) => promptTarget(fieldOf(content, 'prompt_type'))) },
);
